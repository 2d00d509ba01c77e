package io.promptd.mcp.annotations;

import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentsNeeded;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** One parameter: the argument it is, and how its string becomes the parameter's value. */
record AnnotatedArgument(ArgumentField field, Class<?> type, boolean declaredValues) {
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

  static AnnotatedArgument of(Method m, Parameter parameter) {
    Arg arg = parameter.getAnnotation(Arg.class);
    if (arg == null) {
      throw new IllegalArgumentException(
          AnnotatedPrompts.where(m) + ": parameter " + parameter.getName() + " needs @Arg");
    }
    String name = arg.name();
    if (name.isEmpty()) {
      if (!parameter.isNamePresent()) {
        throw new IllegalArgumentException(
            AnnotatedPrompts.where(m) + ": @Arg needs a name (or compile with -parameters)");
      }
      name = parameter.getName();
    }
    Class<?> type = parameter.getType();
    ArgumentField.Type fieldType = type.isEnum() ? ArgumentField.Type.STRING : TYPES.get(type);
    if (fieldType == null) {
      throw new IllegalArgumentException(
          AnnotatedPrompts.where(m) + ": argument '" + name + "' is a " + type.getName()
              + "; arguments are String, int, long, double, boolean (or their boxes) or an enum");
    }
    if (type.isPrimitive() && !arg.required()) {
      throw new IllegalArgumentException(
          AnnotatedPrompts.where(m) + ": argument '" + name + "' is a primitive " + type.getName()
              + ", which cannot be absent: make it required or use " + boxed(type));
    }
    List<String> choices = List.of(arg.values());
    if (choices.isEmpty() && type.isEnum()) {
      List<String> constants = new ArrayList<>();
      for (Object c : type.getEnumConstants()) {
        constants.add(((Enum<?>) c).name());
      }
      choices = constants;
    }
    ArgumentField field = ArgumentField.builder(name)
        .title(AnnotatedPrompts.blank(arg.title()))
        .description(AnnotatedPrompts.blank(arg.description()))
        .type(fieldType)
        .choices(choices)
        .required(arg.required())
        .build();
    return new AnnotatedArgument(field, type, arg.values().length > 0);
  }

  private static String boxed(Class<?> primitive) {
    return primitive == int.class
        ? "Integer"
        : primitive == long.class ? "Long" : primitive == double.class ? "Double" : "Boolean";
  }

  /**
   * The parameter's value for the argument's string, or null when absent; -32602 when it does not
   * read.
   */
  @Nullable
  Object read(@Nullable String value, String prompt) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    String v = value.strip();
    if (!field.choices().isEmpty() && (declaredValues || !type.isEnum())) {
      String match = field.choices().stream()
          .filter(c -> c.equalsIgnoreCase(v))
          .findFirst()
          .orElse(null);
      if (match == null) {
        throw refuse(prompt, "must be one of " + String.join(", ", field.choices()));
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
          default -> throw refuse(prompt, "must be true or false");
        };
      }
      for (Object c : type.getEnumConstants()) {
        if (((Enum<?>) c).name().equalsIgnoreCase(v)) {
          return c;
        }
      }
      throw refuse(prompt, "must be one of " + String.join(", ", field.choices()));
    } catch (NumberFormatException e) {
      throw refuse(
          prompt,
          field.type() == ArgumentField.Type.INTEGER
              ? "must be a whole number"
              : "must be a number");
    }
  }

  private McpException refuse(String prompt, String reason) {
    return new ArgumentsNeeded(
        "prompt '" + prompt + "': argument '" + field.name() + "' " + reason,
        List.of(new ArgumentsNeeded.Question(field, reason)));
  }
}
