package io.promptd.cli;

import io.promptd.library.Diagnostic;
import io.promptd.library.Library;
import io.promptd.library.LibrarySource;
import io.promptd.library.Linter;
import java.io.IOException;
import java.io.PrintStream;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd serve DIR…}: the folders' library, loaded before serving, and watched for changes
 * unless {@code --no-watch} (see {@link Served#watched}).
 */
final class FolderServing implements Serving {
  private final Library library;
  private final ServeOptions.@Nullable SessionSecret sessionSecret;

  private FolderServing(Library library, ServeOptions.@Nullable SessionSecret sessionSecret) {
    this.library = library;
    this.sessionSecret = sessionSecret;
  }

  /** Loads the folders' library, and warns of a folder without prompts. */
  static Serving open(Served.Folders folders, ServeOptions options, PrintStream err)
      throws IOException {
    Library library = Library.open(LibrarySource.folders(folders.directories()), options.library());
    try {
      // Not a log line: serving a folder of plain Markdown is a mistake to see even with logs off.
      for (Diagnostic d : Linter.foldersWithoutPrompts(library)) {
        err.println("promptd: warning: " + d.file() + ": " + d.message());
      }
      return new FolderServing(library, options.sessionSecret());
    } catch (RuntimeException | Error e) {
      library.close();
      throw e;
    }
  }

  @Override
  public Library library() {
    return library;
  }

  /** Loaded before it is served. */
  @Override
  public boolean loaded() {
    return true;
  }

  @Override
  public @Nullable String feedProblem() {
    return library.feedProblem();
  }

  @Override
  public ServeOptions.@Nullable SessionSecret sessionSecret() {
    return sessionSecret;
  }

  @Override
  public void close() {
    library.close();
  }
}
