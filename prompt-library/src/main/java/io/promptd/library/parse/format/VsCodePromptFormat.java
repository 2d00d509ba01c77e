package io.promptd.library.parse.format;

import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.NativeText;
import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.template.PlaceholderTemplate;
import io.promptd.library.parse.text.FrontMatter;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.PromptNames;
import io.promptd.library.parse.text.YamlNode.Mapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * VS Code prompt files ({@code .github/prompts/*.prompt.md}). Front matter {@code name},
 * {@code description} are read; {@code mode}, {@code agent}, {@code model}, {@code tools} are
 * ignored. Each {@code ${input:name}} or {@code ${input:name:placeholder}} becomes a required
 * argument (VS Code always asks for it), described by its placeholder. Editor variables such as
 * {@code ${selection}} and {@code #file:} references have no meaning outside the editor: kept as
 * text and reported by lint.
 */
final class VsCodePromptFormat implements PromptFormat {
  private static final Home HOME = new Home(".github", "prompts");
  private static final Pattern INPUT =
      Pattern.compile("\\$\\{input:([\\p{L}\\p{M}\\p{Nd}_-]{1,64})(?::([^}]*))?}");
  private static final Pattern EDITOR = Pattern.compile(
      "\\$\\{(selection|selectedText|file|fileBasename|fileDirname|fileBasenameNoExtension|workspaceFolder"
          + "|workspaceFolderBasename)}");
  private static final Pattern FILE_REF = Pattern.compile("#file:\\S+");

  VsCodePromptFormat() {}

  @Override
  public String name() {
    return "vscode";
  }

  @Override
  public Home home() {
    return HOME;
  }

  @Override
  public String extension() {
    return ".prompt.md";
  }

  @Override
  public @Nullable String suffix(String lowerName) {
    return lowerName.endsWith(".prompt.md") ? ".prompt.md" : null;
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
    List<PlaceholderTemplate.Piece> pieces = new ArrayList<>();
    Map<String, ArgumentSpec> arguments = new LinkedHashMap<>();
    Matcher m = INPUT.matcher(body);
    int last = 0;
    while (m.find()) {
      pieces.add(new PlaceholderTemplate.Literal(body.substring(last, m.start())));
      String name = PromptNames.nfc(m.group(1));
      String placeholder = m.group(2);
      int line = ForeignFormats.lineAt(body, m.start(), fm.bodyLine());
      arguments.putIfAbsent(
          name,
          ArgumentSpec.simple(name, placeholder == null ? null : placeholder.strip(), true, line));
      pieces.add(new PlaceholderTemplate.Ref(name));
      last = m.end();
    }
    pieces.add(new PlaceholderTemplate.Literal(body.substring(last)));
    ForeignFormats.warnAll(
        EDITOR,
        body,
        fm.bodyLine(),
        problems,
        "editor variable %s is kept as text; it has no value outside VS Code");
    ForeignFormats.warnAll(
        FILE_REF,
        body,
        fm.bodyLine(),
        problems,
        "file reference %s is kept as text; promptd never reads referenced files");
    ForeignFormats.warnShell(body, fm.bodyLine(), problems);
    return ForeignFormats.single(
        source,
        yaml,
        ForeignFormats.name(yaml, source),
        body,
        new ArrayList<>(arguments.values()),
        new PlaceholderTemplate(pieces),
        fm.bodyLine());
  }
}
