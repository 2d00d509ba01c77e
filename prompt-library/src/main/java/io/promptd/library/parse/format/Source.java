package io.promptd.library.parse.format;

import static java.util.Objects.requireNonNull;

import io.promptd.library.parse.text.Root;
import java.nio.file.Path;

/**
 * A prompt file's decoded text and where it came from.
 *
 * @param root the root it was found under
 * @param file the file, under {@code root.path()}
 * @param match its format and name segments
 * @param text the text, LF line ends
 */
public record Source(Root root, Path file, FileKind.Match match, String text) {
  /** Checks the fields. */
  public Source {
    requireNonNull(root, "root");
    requireNonNull(file, "file");
    requireNonNull(match, "match");
    requireNonNull(text, "text");
  }
}
