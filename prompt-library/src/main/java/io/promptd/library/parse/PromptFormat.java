package io.promptd.library.parse;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One prompt file format the library reads: which files it claims, how it parses them into a {@link PromptFile}, and
 * how {@code promptd import} writes them out as a native {@code NAME.prompt.md}. A new format is one implementation
 * plus one line in {@link PromptFormats#ALL}, whose order decides which format claims a file two could read.
 */
public interface PromptFormat {
  /**
   * A hidden folder pair whose files a format reads, such as {@code .claude/commands}: scanned although hidden.
   *
   * @param dir the hidden folder, e.g. {@code .claude}
   * @param sub the folder inside it, e.g. {@code commands}
   */
  record Home(String dir, String sub) {}

  /** A short name for logs and tests, e.g. {@code claude}. */
  String name();

  /**
   * The folder pair whose files this format reads, where ever it sits under a root; null for a format recognized by
   * its file name anywhere outside such a folder.
   */
  @Nullable
  Home home();

  /**
   * The suffix to strip from {@code lowerName} (a lower-cased file name not starting with {@code .}) for the prompt's
   * default name, or null when this format does not read such a file.
   */
  @Nullable
  String suffix(String lowerName);

  /**
   * Parses the decoded file; errors with a line are thrown as a {@link ParseException}, warnings go to
   * {@link Parsing#problems()}.
   */
  PromptFile parse(Source source, Parsing parsing) throws ParseException;

  /**
   * The native {@code NAME.prompt.md} text of a file this format parsed into {@code file}, for {@code promptd import};
   * null when it has none, with the reason added to {@code notes} (as is what the native text expresses differently).
   *
   * @param original the file's text
   */
  @Nullable
  String toNative(PromptFile file, String original, List<String> notes) throws ParseException;

  /**
   * The suffix a Markdown command format strips: {@code .md}, except that a command named {@code x.prompt.md} is
   * command {@code x}, as a native file would be; null when {@code lowerName} is no Markdown file.
   */
  static @Nullable String markdownSuffix(String lowerName) {
    if (!lowerName.endsWith(".md")) {
      return null;
    }
    return lowerName.endsWith(".prompt.md") ? ".prompt.md" : ".md";
  }
}
