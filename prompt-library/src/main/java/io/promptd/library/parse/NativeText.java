package io.promptd.library.parse;

import io.promptd.library.parse.template.Part;
import io.promptd.library.parse.template.PlaceholderTemplate;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the formats' {@link io.promptd.library.parse.format.PromptFormat#toNative} share: a prompt
 * of a placeholder format (Claude Code, VS Code, Codex, Cursor, Gemini CLI) written out as a native
 * {@code NAME.prompt.md}, for {@code promptd import}; and a Dotprompt or Prompty file's
 * translation, without its padding. What the native format expresses differently is said in the
 * notes.
 */
public final class NativeText {
  private NativeText() {}

  /** A templated format's translation without the comments that mark what was translated. */
  public static String unmarked(String translated) {
    return translated.replaceAll("(?m)^# \\(translated from (front matter|the file)\\)\\n", "");
  }

  /** The native text of a placeholder format's prompt, or null with the reason in {@code notes}. */
  public static @Nullable String placeholders(PromptFile file, List<String> notes) {
    StringBuilder front = new StringBuilder("---\n");
    front.append("name: ").append(json(file.prompt().name())).append('\n');
    if (file.prompt().description() != null) {
      front.append("description: ").append(json(file.prompt().description())).append('\n');
    }
    if (!file.arguments().isEmpty()) {
      List<Json> list = new ArrayList<>();
      for (ArgumentSpec a : file.arguments()) {
        JsonObject.Builder b =
            JsonObject.builder().put("name", a.name()).put("description", a.description());
        if (a.required()) {
          b.put("required", true);
        }
        list.add(b.build());
      }
      front.append("arguments: ").append(JsonCodec.write(new JsonArray(list))).append('\n');
    }
    if (file.scopes() != null) {
      front
          .append("scopes: ")
          .append(JsonCodec.write(JsonArray.ofStrings(List.copyOf(file.scopes()))))
          .append('\n');
    }
    front.append("---\n");
    StringBuilder body = new StringBuilder();
    for (Part part : file.parts()) {
      if (!(part instanceof Part.Text text)
          || !(text.template() instanceof PlaceholderTemplate template)) {
        notes.add("a part of the prompt has no native form; not converted");
        return null;
      }
      for (PlaceholderTemplate.Piece piece : template.pieces()) {
        switch (piece) {
          case PlaceholderTemplate.Literal l -> {
            if (l.text().contains("{{") || l.text().contains("}}")) {
              notes.add(
                  "the text contains '{{' or '}}', which Mustache would read as tags; not converted");
              return null;
            }
            body.append(l.text());
          }
          case PlaceholderTemplate.Ref r -> body.append("{{").append(r.name()).append("}}");
          case PlaceholderTemplate.Joined j -> {
            for (int i = 0; i < j.names().size(); i++) {
              String n = j.names().get(i);
              body.append(i == 0 ? "{{" + n + "}}" : "{{#" + n + "}} {{" + n + "}}{{/" + n + "}}");
            }
            notes.add(
                "$ARGUMENTS became the positional arguments one after another (a space before each given one"
                    + " after the first)");
          }
          case PlaceholderTemplate.Appended a -> {
            body.append("{{#")
                .append(a.name())
                .append("}}\n\n{{")
                .append(a.name())
                .append("}}{{/")
                .append(a.name())
                .append("}}");
            notes.add("'" + a.name()
                + "' (what follows the command) is added after the prompt when given");
          }
        }
      }
    }
    return front + body.toString();
  }

  private static String json(@Nullable String s) {
    return JsonCodec.write(new JsonString(s == null ? "" : s));
  }
}
