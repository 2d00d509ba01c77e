package io.promptd.mcp.annotations;

import io.promptd.mcp.server.ArgumentField;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** One parameter: the argument it is, and how its string becomes the parameter's value. */
record AnnotatedArgument(ArgumentField field, Class<?> type) {
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
    ArgumentField.Type fieldType = ParameterValues.fieldType(type);
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
    if (choices.isEmpty()) {
      choices = ParameterValues.constants(type);
    }
    ArgumentField field = ArgumentField.builder(name)
        .title(AnnotatedPrompts.blank(arg.title()))
        .description(AnnotatedPrompts.blank(arg.description()))
        .type(fieldType)
        .choices(choices)
        .required(arg.required())
        .build();
    return new AnnotatedArgument(field, type);
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
    return ParameterValues.read(field, type, value, prompt);
  }
}
