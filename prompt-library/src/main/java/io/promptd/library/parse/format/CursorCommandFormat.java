package io.promptd.library.parse.format;

import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.NativeText;
import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.template.PlaceholderTemplate;
import io.promptd.library.parse.text.FrontMatter;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.YamlNode.Mapping;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Cursor commands ({@code .cursor/commands/*.md}): plain Markdown, sent as written; what the user
 * types after the command is added after it. Here that is one optional argument, {@code arguments},
 * appended after a blank line when given. Front matter, if a file has one, may set {@code name} and
 * {@code description} (else the first line describes it). {@code @file} references and
 * {@code !`cmd`} snippets are kept as text and reported by lint.
 */
final class CursorCommandFormat implements PromptFormat {
  private static final Home HOME = new Home(".cursor", "commands");

  CursorCommandFormat() {}

  @Override
  public String name() {
    return "cursor";
  }

  @Override
  public Home home() {
    return HOME;
  }

  @Override
  public String extension() {
    return ".md";
  }

  @Override
  public @Nullable String suffix(String lowerName) {
    return PromptFormat.markdownSuffix(lowerName);
  }

  @Override
  public @Nullable String toNative(PromptFile file, String original, List<String> notes) {
    return NativeText.placeholders(file, notes);
  }

  @Override
  public PromptFile parse(Source source, Parsing parsing) throws ParseException {
    Problems problems = parsing.problems();
    FrontMatter fm = FrontMatter.parseLenient(source.text());
    Mapping yaml = fm.yaml();
    String body = fm.body();
    ForeignFormats.warnShell(body, fm.bodyLine(), problems);
    ForeignFormats.warnAll(
        ForeignFormats.FILE_REF,
        body,
        fm.bodyLine(),
        problems,
        "file reference %s is kept as text; promptd never reads referenced files");
    List<ArgumentSpec> arguments = List.of(ArgumentSpec.simple(
        "arguments", "text typed after the command; added after the prompt", false, 1));
    return ForeignFormats.single(
        source,
        yaml,
        ForeignFormats.name(yaml, source),
        body,
        arguments,
        new PlaceholderTemplate(List.of(
            new PlaceholderTemplate.Literal(body), new PlaceholderTemplate.Appended("arguments"))),
        fm.bodyLine());
  }
}
