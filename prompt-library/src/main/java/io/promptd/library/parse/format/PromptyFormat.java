package io.promptd.library.parse.format;

import io.promptd.library.parse.NativeText;
import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Prompty files ({@code NAME.prompty}): YAML front matter with inputs and a Jinja body with role
 * lines, translated into native text and parsed as such.
 */
final class PromptyFormat implements PromptFormat {
  PromptyFormat() {}

  @Override
  public String name() {
    return "prompty";
  }

  @Override
  public @Nullable Home home() {
    return null;
  }

  @Override
  public String extension() {
    return ".prompty";
  }

  @Override
  public @Nullable String suffix(String lowerName) {
    return lowerName.endsWith(".prompty") ? ".prompty" : null;
  }

  @Override
  public @Nullable PromptFile parse(Source source, Parsing parsing) throws ParseException {
    String text = TemplatedFormats.prompty(source.text(), parsing.problems());
    return NativeFormat.parseNative(
        new Source(source.root(), source.file(), source.match(), text), parsing);
  }

  /** The translation, without the comments that mark what was translated. */
  @Override
  public String toNative(PromptFile file, String original, List<String> notes)
      throws ParseException {
    return NativeText.unmarked(TemplatedFormats.prompty(original, new Problems(file.file())));
  }
}
