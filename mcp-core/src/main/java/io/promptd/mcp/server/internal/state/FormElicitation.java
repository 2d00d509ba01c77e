package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentsNeeded;
import io.promptd.mcp.server.ServerText;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The form an {@code elicitation/create} request shows for prompt arguments, and the reading of the
 * user's answer. The schema keeps to what the spec's form schemas allow (top-level string, number,
 * integer and boolean fields, and single-select enums); a pattern, which they cannot express, is
 * said in the field's description and checked when the answer comes back.
 */
public final class FormElicitation {
  /** An answer's text longer than this is refused. */
  public static final int MAX_VALUE_CHARS = 16_384;
  /** A number answered with more decimal places than this, or a larger power of ten, is refused. */
  private static final int MAX_SCALE = 1_000;

  /**
   * -32602 for arguments the user declined or cancelled the form for: told apart for usage counts.
   */
  public static McpException declined(ServerText text, String message, String action) {
    return new Declined(
        text.get(action.equals("decline") ? "form.declined" : "form.cancelled", message));
  }

  /** A -32602 answer to a declined or cancelled form. */
  public static final class Declined extends McpException {
    private static final long serialVersionUID = 1L;

    Declined(String message) {
      super(ErrorCodes.INVALID_PARAMS, message);
    }
  }

  /**
   * What the user did with the form, and the values they gave (as argument strings) when they
   * accepted.
   */
  public record Answer(String action, Map<String, String> values) {
    public boolean accepted() {
      return action.equals("accept");
    }
  }

  private FormElicitation() {}

  /**
   * Whether a client's capabilities declare form elicitation ({@code elicitation: {}} means form,
   * for older clients).
   */
  public static boolean supported(JsonObject clientCapabilities) {
    return clientCapabilities
        .object("elicitation")
        .map(e -> e.members().isEmpty() || e.has("form"))
        .orElse(false);
  }

  /**
   * The {@code elicitation/create} params asking for {@code questions} of prompt {@code prompt}, in
   * the words of {@code text}.
   */
  public static JsonObject params(
      ServerText text, String prompt, List<ArgumentsNeeded.Question> questions) {
    JsonObject.Builder properties = JsonObject.builder();
    List<String> required = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    for (ArgumentsNeeded.Question q : questions) {
      ArgumentField f = q.field();
      properties.put(f.name(), property(text, f));
      if (f.required()) {
        required.add(f.name());
      }
      if (!q.reason()
          .isEmpty()) { // fields asked only to complete the form (form-first) need no reason
        reasons.add(text.get("form.reason", f.title() != null ? f.title() : f.name(), q.reason()));
      }
    }
    JsonObject.Builder schema =
        JsonObject.builder().put("type", "object").put("properties", properties.build());
    if (!required.isEmpty()) {
      schema.put("required", JsonArray.ofStrings(required));
    }
    return JsonObject.builder()
        .put("mode", "form")
        .put(
            "message",
            reasons.isEmpty()
                ? text.get("form.check", prompt)
                : text.get("form.needs", prompt, String.join(text.get("form.separator"), reasons)))
        .put("requestedSchema", schema.build())
        .build();
  }

  private static JsonObject property(ServerText text, ArgumentField f) {
    JsonObject.Builder p = JsonObject.builder();
    String description = f.description();
    if (f.pattern() != null) {
      description =
          (description == null ? "" : description + " ") + text.get("field.pattern", f.pattern());
    }
    switch (f.type()) {
      case BOOLEAN -> p.put("type", "boolean");
      case NUMBER -> p.put("type", "number");
      case INTEGER -> p.put("type", "integer");
      case STRING -> {
        p.put("type", "string");
        if (!f.choices().isEmpty() && !f.choiceTitles().isEmpty()) { // a titled single-select
          List<Json> options = new ArrayList<>();
          for (String c : f.choices()) {
            options.add(JsonObject.builder()
                .put("const", c)
                .put("title", f.choiceTitles().getOrDefault(c, c))
                .build());
          }
          p.put("oneOf", new JsonArray(options));
        } else if (!f.choices().isEmpty()) {
          p.put("enum", JsonArray.ofStrings(f.choices()));
        }
      }
    }
    if (f.title() != null) {
      p.put("title", f.title());
    }
    if (description != null) {
      p.put("description", description);
    }
    Json fallback = defaultValue(f);
    if (fallback != null) {
      p.put("default", fallback);
    }
    return p.build();
  }

  /**
   * The field's default as its schema type, or null when there is none or it does not fit the type.
   */
  private static @Nullable Json defaultValue(ArgumentField f) {
    String d = f.defaultValue();
    if (d == null) {
      return null;
    }
    return switch (f.type()) {
      case BOOLEAN ->
        d.equalsIgnoreCase("true")
            ? JsonBoolean.TRUE
            : d.equalsIgnoreCase("false") ? JsonBoolean.FALSE : null;
      case NUMBER, INTEGER -> {
        try {
          BigDecimal n = new BigDecimal(d.trim());
          yield f.type() == ArgumentField.Type.INTEGER && n.stripTrailingZeros().scale() > 0
              ? null
              : JsonNumber.of(n);
        } catch (NumberFormatException e) {
          yield null;
        }
      }
      case STRING -> f.choices().isEmpty() || f.choices().contains(d) ? new JsonString(d) : null;
    };
  }

  /**
   * Reads an {@code ElicitResult} answering a form that asked for {@code asked}: its action, and
   * for an accept its values as argument strings (numbers in plain decimal, booleans as
   * {@code true}/{@code false}). Values for fields that were not asked are ignored, as the spec
   * asks of unexpected input.
   *
   * @param where the field's path, for error messages (e.g. {@code inputResponses.arguments})
   * @throws McpException -32602 naming the field that is malformed
   */
  public static Answer read(Json result, Set<String> asked, String where) {
    if (!(result instanceof JsonObject o)) {
      throw McpException.invalidParams(
          "Invalid params: " + where + " must be an object (an ElicitResult)");
    }
    String action = o.get("action") instanceof JsonString s ? s.value() : null;
    if (action == null || !Set.of("accept", "decline", "cancel").contains(action)) {
      throw McpException.invalidParams("Invalid params: " + where
          + ".action must be \"accept\", \"decline\" or" + " \"cancel\"");
    }
    if (!action.equals("accept")) {
      return new Answer(action, Map.of());
    }
    if (!(o.get("content") instanceof JsonObject content)) {
      throw McpException.invalidParams("Invalid params: " + where
          + ".content is required (an object) when" + " action is \"accept\"");
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (Map.Entry<String, Json> e : content.members().entrySet()) {
      if (!asked.contains(e.getKey())) {
        continue;
      }
      String field = where + ".content." + e.getKey();
      String text = switch (e.getValue()) {
        case JsonString s -> UnicodeText.checked(s.value(), "Invalid params: " + field);
        case JsonBoolean b -> Boolean.toString(b.value());
        // An exponent far out (1e999999999, found by StateFuzzTest) is no form answer: refused
        // before it is written out in full.
        case JsonNumber n
        when Math.abs((long) n.value().stripTrailingZeros().scale()) > MAX_SCALE ->
          throw McpException.invalidParams(
              "Invalid params: " + field + " is not a number a form takes");
        case JsonNumber n ->
          n.value().stripTrailingZeros().scale() <= 0
              ? n.value().toBigInteger().toString()
              : n.value().toPlainString();
        default ->
          throw McpException.invalidParams(
              "Invalid params: " + field + " must be a string, a number or a" + " boolean, not "
                  + e.getValue().typeName());
      };
      if (text.length() > MAX_VALUE_CHARS) {
        throw McpException.invalidParams(
            "Invalid params: " + field + " is longer than " + MAX_VALUE_CHARS + " characters");
      }
      values.put(e.getKey(), text);
    }
    return new Answer(action, values);
  }

  /** For messages: a JSON value as short text. */
  static String show(Json value) {
    String text = JsonCodec.write(value);
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }
}
