package io.promptd.library.parse;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.ArgumentField;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * An argument as declared in a prompt file, with the rules its value must meet.
 *
 * @param name the name
 * @param title a display name, or null
 * @param description what it is for, or null
 * @param required whether {@code prompts/get} must supply it
 * @param type the type its text must have
 * @param defaultValue the value used when it is not supplied, or null
 * @param enumValues the only allowed values, or none
 * @param examples suggested values for completion, or none
 * @param pattern a regular expression the whole value must match, or null; matched within a budget
 *     (prompt files are untrusted: see {@link BoundedMatch})
 * @param dependsOn the argument whose value selects keyed {@code enum}/{@code examples} lists, or
 *     null
 * @param line the line it is declared on
 * @param enumTitles display names of {@code enum} values, by value (a form shows them); empty for
 *     none
 */
public record ArgumentSpec(
    String name,
    @Nullable String title,
    @Nullable String description,
    boolean required,
    ArgType type,
    @Nullable String defaultValue,
    Choices enumValues,
    Choices examples,
    @Nullable Pattern pattern,
    @Nullable String dependsOn,
    int line,
    Map<String, String> enumTitles) {
  /** Checks the fields. */
  public ArgumentSpec {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
    requireNonNull(enumValues, "enumValues");
    requireNonNull(examples, "examples");
    enumTitles = Map.copyOf(enumTitles);
    name = requireNonNull(Shared.string(name));
    defaultValue = Shared.string(defaultValue);
  }

  /**
   * A plain optional or required string argument, as the Claude and VS Code formats declare them.
   */
  public static ArgumentSpec simple(
      String name, @Nullable String description, boolean required, int line) {
    return new ArgumentSpec(
        name,
        null,
        description,
        required,
        ArgType.STRING,
        null,
        Choices.NONE,
        Choices.NONE,
        null,
        null,
        line,
        Map.of());
  }

  /**
   * The argument as a form field, for the server to ask the user for it. Choices keyed by another
   * argument's value cannot be expressed in a form: such a field is free text, and the answer is
   * checked like any value.
   */
  public ArgumentField toField() {
    ArgumentField.Type t = switch (type) {
      case STRING -> ArgumentField.Type.STRING;
      case INTEGER -> ArgumentField.Type.INTEGER;
      case NUMBER -> ArgumentField.Type.NUMBER;
      case BOOLEAN -> ArgumentField.Type.BOOLEAN;
    };
    return ArgumentField.builder(name)
        .title(title)
        .description(description)
        .type(t)
        .choices(enumValues.isKeyed() ? List.of() : enumValues.all())
        .choiceTitles(enumTitles)
        .defaultValue(defaultValue)
        .pattern(pattern == null ? null : pattern.pattern())
        .required(required)
        .build();
  }

  /**
   * The rules beyond {@code required} that a client can show next to the argument (published in the
   * prompt's {@code _meta} under
   * {@link io.promptd.library.parse.format.NativeFormat#ARGUMENTS_META}): {@code type} when not a
   * string, {@code default}, {@code enum} (with {@code enumTitles}), {@code pattern},
   * {@code dependsOn}; null when there are none. Choices keyed by another argument's value are left
   * out ({@code dependsOn} says where they come from; completion offers them).
   */
  public @Nullable JsonObject constraints() {
    JsonObject.Builder b = JsonObject.builder();
    if (type != ArgType.STRING) {
      b.put("type", type.name().toLowerCase(Locale.ROOT));
    }
    b.put("default", defaultValue);
    if (!enumValues.isEmpty() && !enumValues.isKeyed()) {
      b.put("enum", JsonArray.ofStrings(enumValues.all()));
      if (!enumTitles.isEmpty()) {
        JsonObject.Builder titles = JsonObject.builder();
        for (String value : enumValues.all()) {
          titles.put(value, enumTitles.get(value));
        }
        b.put("enumTitles", titles.build());
      }
    }
    b.put("pattern", pattern == null ? null : pattern.pattern());
    b.put("dependsOn", dependsOn);
    JsonObject built = b.build();
    return built.isEmpty() ? null : built;
  }

  /** The argument as {@code prompts/list} shows it. */
  public PromptArgument toProtocol() {
    return new PromptArgument(name, title, description, required);
  }

  /**
   * The value to use for {@code value}: an enum value matched case-insensitively is returned as
   * declared.
   *
   * @param dependency the value of the {@link #dependsOn} argument, or null
   * @return the normalized value, or null when the value breaks a rule (see {@link #violation})
   */
  public @Nullable String normalize(String value, @Nullable String dependency) {
    if (!type.accepts(value)) {
      return null;
    }
    String result = value;
    if (!enumValues.isEmpty()) {
      result = match(enumValues.forKey(dependency), value);
      if (result == null) {
        return null;
      }
    }
    if (pattern != null && BoundedMatch.matches(pattern, result) != BoundedMatch.Result.MATCHES) {
      return null;
    }
    return type == ArgType.BOOLEAN ? result.toLowerCase(Locale.ROOT) : result;
  }

  /** Says which rule {@code value} breaks, in words fit for an error message. */
  public String violation(String value, @Nullable String dependency) {
    if (!type.accepts(value)) {
      return "must be "
          + switch (type) {
            case INTEGER -> "an integer";
            case NUMBER -> "a number";
            case BOOLEAN -> "true or false";
            case STRING -> "a string";
          }
          + ", not '" + clip(value) + "'";
    }
    List<String> allowed = enumValues.forKey(dependency);
    if (!enumValues.isEmpty() && match(allowed, value) == null) {
      String given = dependency != null && enumValues.isKeyed()
          ? " when '" + dependsOn + "' is '" + dependency + "'"
          : "";
      return "must be one of " + String.join(", ", allowed) + given + ", not '" + clip(value) + "'";
    }
    if (pattern != null) {
      return BoundedMatch.matches(pattern, value) == BoundedMatch.Result.TOO_COSTLY
          ? "could not be checked against the pattern " + pattern.pattern()
              + " (the pattern backtracks too much on" + " this value of " + value.length()
              + " characters; the prompt file's author can simplify it)"
          : "must match the pattern " + pattern.pattern() + ", not '" + clip(value) + "'";
    }
    return "is invalid";
  }

  private static @Nullable String match(List<String> allowed, String value) {
    for (String a : allowed) {
      if (a.equals(value)) {
        return a;
      }
    }
    for (String a : allowed) {
      if (a.equalsIgnoreCase(value)) {
        return a;
      }
    }
    return null;
  }

  // Values go into error messages shown to clients and logs; keep them short.
  private static String clip(String value) {
    return value.length() <= 60 ? value : value.substring(0, 57) + "...";
  }
}
