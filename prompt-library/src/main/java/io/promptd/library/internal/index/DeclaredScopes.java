package io.promptd.library.internal.index;

import io.promptd.library.internal.source.FileRole;
import io.promptd.library.parse.text.FolderFile;
import io.promptd.library.parse.text.FrontMatter;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.SafeFiles;
import io.promptd.library.parse.text.Scopes;
import io.promptd.library.parse.text.YamlNode;
import java.nio.file.Path;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The scopes one version of a file declares by itself, judged from its bytes alone (no folder, no
 * other file): what {@link io.promptd.library.LibraryFiles#declaredScopes} answers. Only prompt,
 * resource and folder files declare scopes; a file whose declaration cannot be read declares
 * {@link FolderDefaults#UNREADABLE}, which no token holds.
 */
public final class DeclaredScopes {
  private DeclaredScopes() {}

  public static @Nullable Set<String> of(Path file, @Nullable FileRole role, byte[] data) {
    if (role == null || role == FileRole.SKILL) {
      return null;
    }
    try {
      String text = SafeFiles.decodeUtf8(data);
      if (role == FileRole.FOLDER) {
        return FolderFile.parse(text, new Problems(file)).scopes();
      }
      return Scopes.read(frontMatter(text));
    } catch (ParseException | RuntimeException | StackOverflowError e) {
      // What cannot be read cannot be judged: hidden from every caller with a token.
      return FolderDefaults.UNREADABLE;
    }
  }

  /** The front matter as the strictest of the formats reads it, else as the lenient ones do. */
  private static YamlNode.Mapping frontMatter(String text) throws ParseException {
    try {
      return FrontMatter.parse(text).yaml();
    } catch (ParseException e) {
      return FrontMatter.parseLenient(text).yaml();
    }
  }
}
