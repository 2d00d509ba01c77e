package io.promptd.mcp.annotations;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentsNeeded;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How a prompt argument's string becomes a Java method parameter's value, for prompts written as
 * methods: {@link AnnotatedPrompts}'s, and those an adapter reads from another framework's
 * annotations. A parameter is a {@code String}, an {@code int}, {@code long}, {@code double} or
 * {@code boolean} (or its box), or an enum; a value that does not read is promptd's -32602 naming
 * the argument, with the question a form asks again.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class ParameterValues {
  private static final Map<Class<?>, ArgumentField.Type> TYPES = Map.ofEntries(
      Map.entry(String.class, ArgumentField.Type.STRING),
      Map.entry(int.class, ArgumentField.Type.INTEGER),
      Map.entry(Integer.class, ArgumentField.Type.INTEGER),
      Map.entry(long.class, ArgumentField.Type.INTEGER),
      Map.entry(Long.class, ArgumentField.Type.INTEGER),
      Map.entry(double.class, ArgumentField.Type.NUMBER),
      Map.entry(Double.class, ArgumentField.Type.NUMBER),
      Map.entry(boolean.class, ArgumentField.Type.BOOLEAN),
      Map.entry(Boolean.class, ArgumentField.Type.BOOLEAN));

  private ParameterValues() {}

  /**
   * The argument type a parameter of {@code type} is asked for as ({@code STRING} for an enum), or
   * null when a parameter cannot be of that type.
   */
  public static ArgumentField.@Nullable Type fieldType(Class<?> type) {
    return type.isEnum() ? ArgumentField.Type.STRING : TYPES.get(type);
  }

  /** The names of an enum's constants, its choices; none for another type. */
  public static List<String> constants(Class<?> type) {
    List<String> names = new ArrayList<>();
    if (type.isEnum()) {
      for (Object c : type.getEnumConstants()) {
        names.add(((Enum<?>) c).name());
      }
    }
    return names;
  }

  /**
   * The value of a parameter of {@code type} for {@code field}'s string {@code value}, or null when
   * it is absent. The field's choices are matched without regard to case (a {@code String}
   * parameter gets the choice as declared).
   *
   * @param prompt the prompt's name, for the message
   * @throws McpException -32602 ({@link ArgumentsNeeded}) naming the argument, when the value does
   *     not read as the type or is not one of the choices
   */
  public static @Nullable Object read(
      ArgumentField field, Class<?> type, @Nullable String value, String prompt) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    String v = value.strip();
    if (!field.choices().isEmpty()) {
      String match = field.choices().stream()
          .filter(c -> c.equalsIgnoreCase(v))
          .findFirst()
          .orElse(null);
      if (match == null) {
        throw refuse(field, prompt, "must be one of " + String.join(", ", field.choices()));
      }
      if (type == String.class) {
        return match;
      }
    }
    try {
      if (type == String.class) {
        return value;
      } else if (type == int.class || type == Integer.class) {
        return Integer.parseInt(v);
      } else if (type == long.class || type == Long.class) {
        return Long.parseLong(v);
      } else if (type == double.class || type == Double.class) {
        double d = Double.parseDouble(v);
        if (!Double.isFinite(d)) {
          throw new NumberFormatException("not finite");
        }
        return d;
      } else if (type == boolean.class || type == Boolean.class) {
        return switch (v.toLowerCase(Locale.ROOT)) {
          case "true" -> true;
          case "false" -> false;
          default -> throw refuse(field, prompt, "must be true or false");
        };
      }
      for (Object c : type.getEnumConstants()) {
        if (((Enum<?>) c).name().equalsIgnoreCase(v)) {
          return c;
        }
      }
      throw refuse(field, prompt, "must be one of " + String.join(", ", field.choices()));
    } catch (NumberFormatException e) {
      throw refuse(
          field,
          prompt,
          field.type() == ArgumentField.Type.INTEGER
              ? "must be a whole number"
              : "must be a number");
    }
  }

  private static McpException refuse(ArgumentField field, String prompt, String reason) {
    return new ArgumentsNeeded(
        "prompt '" + prompt + "': argument '" + field.name() + "' " + reason,
        List.of(new ArgumentsNeeded.Question(field, reason)));
  }
}
