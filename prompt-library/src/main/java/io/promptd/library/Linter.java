package io.promptd.library;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Checks prompt libraries without serving them, for {@code promptd check DIR…}, prompt and resource files alike:
 * invalid front matter, template variables with no declared argument, arguments never used, missing, unreadable or
 * out-of-root attachments and partials, duplicate names (errors here), and shell snippets or file references that
 * are kept as text.
 */
public final class Linter {
  private Linter() {}

  /**
   * Every problem in {@code roots}, sorted by file and line.
   *
   * @throws IOException if a root is not a readable folder
   */
  public static List<Diagnostic> check(List<Path> roots) throws IOException {
    try (Library library =
        LibrarySource.folders(roots).open(LibraryOptions.defaults(), "Linter.check")) {
      return library.lint();
    }
  }
}
