package io.promptd.library.parse.format;

import io.promptd.library.parse.NativeText;
import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Dotprompt files ({@code NAME.prompt}, except partials, whose names start with {@code _}): YAML
 * front matter with a Picoschema or JSON Schema input and a Handlebars body, translated into native
 * text and parsed as such.
 */
final class DotpromptFormat implements PromptFormat {
  DotpromptFormat() {}

  @Override
  public String name() {
    return "dotprompt";
  }

  @Override
  public @Nullable Home home() {
    return null;
  }

  @Override
  public String extension() {
    return ".prompt";
  }

  @Override
  public @Nullable String suffix(String lowerName) {
    return lowerName.endsWith(".prompt") && !lowerName.startsWith("_") ? ".prompt" : null;
  }

  @Override
  public @Nullable PromptFile parse(Source source, Parsing parsing) throws ParseException {
    String text = TemplatedFormats.dotprompt(source.text(), parsing.problems());
    return NativeFormat.parseNative(
        new Source(source.root(), source.file(), source.match(), text), parsing);
  }

  /** The translation, without the comments that mark what was translated. */
  @Override
  public String toNative(PromptFile file, String original, List<String> notes)
      throws ParseException {
    return NativeText.unmarked(TemplatedFormats.dotprompt(original, new Problems(file.file())));
  }
}
