package io.promptd.library.parse.format;

import java.util.ArrayList;
import java.util.List;

/**
 * The prompt file formats the library reads, in one place. A file inside a format's
 * {@link PromptFormat#home() folder pair} belongs to that format (where pairs nest, the one nearest
 * the top decides; at one place, the earlier in this list); any other file to the first format
 * without a folder pair that claims its name.
 */
public final class PromptFormats {
  /** {@code NAME.prompt.md}: YAML front matter and a Mustache body. */
  public static final PromptFormat NATIVE = new NativeFormat();

  /** Every format, in precedence order. */
  public static final List<PromptFormat> ALL = List.of(
      new ClaudeCommandFormat(),
      new VsCodePromptFormat(),
      new CodexPromptFormat(),
      new CursorCommandFormat(),
      new GeminiCommandFormat(),
      NATIVE,
      new DotpromptFormat(),
      new PromptyFormat());

  private PromptFormats() {}

  /**
   * The files some format reads, as a user would write them, the native format's first:
   * {@code *.prompt.md}, {@code .claude/commands/*.md}, …
   */
  public static List<String> patterns() {
    List<String> out = new ArrayList<>();
    out.add(NATIVE.pattern());
    for (PromptFormat f : ALL) {
      if (!f.equals(NATIVE)) {
        out.add(f.pattern());
      }
    }
    return List.copyOf(out);
  }
}
