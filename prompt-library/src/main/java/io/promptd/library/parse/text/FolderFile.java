package io.promptd.library.parse.text;

import java.nio.file.Path;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@value #NAME}: settings for every prompt and resource file in its folder and the folders below
 * it, unless a nearer folder file or the file itself says otherwise. Today it holds one key,
 * {@code scopes}, the default for files whose front matter has none. It is never served itself.
 *
 * @param scopes the default scopes, or null when the file sets none
 */
public record FolderFile(@Nullable Set<String> scopes) {
  /** The file name. */
  public static final String NAME = "_folder.yaml";

  private static final Set<String> KEYS = Set.of(Scopes.KEY);

  /** Copies the scopes. */
  public FolderFile {
    scopes = scopes == null ? null : Set.copyOf(scopes);
  }

  /** Whether {@code file} is named like a folder file. */
  public static boolean is(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().equals(NAME);
  }

  /**
   * Parses the text of a folder file: a YAML mapping.
   *
   * @param problems receives warnings (unknown keys)
   * @throws ParseException at the first error
   */
  public static FolderFile parse(String text, Problems problems) throws ParseException {
    YamlNode.Mapping yaml;
    try {
      yaml = YamlReader.read(text, 1);
    } catch (ParseException e) {
      // The reader was written for front matter and says so; this is a file of its own.
      throw new ParseException(e.line(), e.getMessage().replace("front matter", NAME));
    }
    Fields.warnUnknown(yaml, KEYS, "folder file", problems);
    return new FolderFile(Scopes.read(yaml));
  }
}
