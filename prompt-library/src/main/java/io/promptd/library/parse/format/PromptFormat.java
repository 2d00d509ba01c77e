package io.promptd.library.parse.format;

import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.text.ParseException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One prompt file format the library reads: which files it claims, how it parses them into a
 * {@link PromptFile}, and how {@code promptd import} writes them out as a native
 * {@code NAME.prompt.md}. A new format is one implementation plus one line in
 * {@link PromptFormats#ALL}, whose order decides which format claims a file two could read.
 */
public interface PromptFormat {
  /**
   * A hidden folder pair whose files a format reads, such as {@code .claude/commands}: scanned
   * although hidden.
   *
   * @param dir the hidden folder, e.g. {@code .claude}
   * @param sub the folder inside it, e.g. {@code commands}
   */
  record Home(String dir, String sub) {}

  /** A short name for logs and tests, e.g. {@code claude}. */
  String name();

  /**
   * The folder pair whose files this format reads, where ever it sits under a root; null for a
   * format recognized by its file name anywhere outside such a folder.
   */
  @Nullable
  Home home();

  /**
   * The suffix to strip from {@code lowerName} (a lower-cased file name not starting with
   * {@code .}) for the prompt's default name, or null when this format does not read such a file.
   */
  @Nullable
  String suffix(String lowerName);

  /**
   * How the names of the files it reads end, for messages: {@code .md}, {@code .toml},
   * {@code .prompt.md}.
   */
  String extension();

  /**
   * The files it reads as a user would write them, for messages: {@code *.prompt.md},
   * {@code .claude/commands/*.md} (also in folders below the pair).
   */
  default String pattern() {
    Home h = home();
    return (h == null ? "" : h.dir() + "/" + h.sub() + "/") + "*" + extension();
  }

  /**
   * Parses the decoded file; warnings go to {@link Parsing#problems()}, and so do errors that leave
   * the rest of the file worth checking ({@link io.promptd.library.parse.text.Problems#fail}), the
   * others are thrown as a {@link ParseException}.
   *
   * @return the prompt; null when an error was recorded with
   *     {@link io.promptd.library.parse.text.Problems#fail}
   */
  @Nullable
  PromptFile parse(Source source, Parsing parsing) throws ParseException;

  /**
   * The native {@code NAME.prompt.md} text of a file this format parsed into {@code file}, for
   * {@code promptd import}; null when it has none, with the reason added to {@code notes} (as is
   * what the native text expresses differently).
   *
   * @param original the file's text
   */
  @Nullable
  String toNative(PromptFile file, String original, List<String> notes) throws ParseException;

  /**
   * The suffix a Markdown command format strips: {@code .md}, except that a command named
   * {@code x.prompt.md} is command {@code x}, as a native file would be; null when
   * {@code lowerName} is no Markdown file.
   */
  static @Nullable String markdownSuffix(String lowerName) {
    if (!lowerName.endsWith(".md")) {
      return null;
    }
    return lowerName.endsWith(".prompt.md") ? ".prompt.md" : ".md";
  }
}
