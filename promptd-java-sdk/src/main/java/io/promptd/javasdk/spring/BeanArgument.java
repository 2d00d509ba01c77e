package io.promptd.javasdk.spring;

import io.promptd.mcp.annotations.ParameterValues;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentsNeeded;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.mcp.annotation.McpArg;

/**
 * One {@link McpArg} parameter: the argument it is, typed from the parameter's Java type, and how
 * the argument's string becomes the parameter's value.
 */
record BeanArgument(ArgumentField field, Class<?> type) {
  /**
   * The argument of {@code parameter}.
   *
   * @throws IllegalArgumentException naming the method, when the parameter cannot be an argument
   */
  static BeanArgument of(Method m, Parameter parameter, McpArg arg) {
    String name = arg.name();
    if (name.isEmpty()) {
      if (!parameter.isNamePresent()) {
        throw new IllegalArgumentException(
            BeanMethods.where(m) + ": @McpArg needs a name (or compile with -parameters)");
      }
      name = parameter.getName();
    }
    Class<?> type = parameter.getType();
    ArgumentField.Type fieldType = ParameterValues.fieldType(type);
    if (fieldType == null) {
      throw new IllegalArgumentException(BeanMethods.where(m) + ": argument '" + name + "' is a "
          + type.getName()
          + "; arguments are String, int, long, double, boolean (or their boxes) or an enum");
    }
    if (type.isPrimitive() && !arg.required()) {
      throw new IllegalArgumentException(BeanMethods.where(m) + ": argument '" + name
          + "' is a primitive " + type.getName()
          + ", which cannot be absent: make it @McpArg(required = true) or use its box");
    }
    List<String> choices = ParameterValues.constants(type);
    ArgumentField field = ArgumentField.builder(name)
        .description(arg.description().isEmpty() ? null : arg.description())
        .type(fieldType)
        .choices(choices)
        .required(arg.required())
        .build();
    return new BeanArgument(field, type);
  }

  /** The argument as {@code prompts/list} shows it. */
  PromptArgument declared() {
    return new PromptArgument(field.name(), null, field.description(), field.required());
  }

  /**
   * The rules beyond {@code required} a client can show beside the argument, as a prompt file's
   * front matter publishes them ({@code type} when not a string, {@code enum}); null when none.
   */
  @Nullable
  JsonObject rules() {
    JsonObject.Builder b = JsonObject.builder();
    if (field.type() != ArgumentField.Type.STRING) {
      b.put("type", field.type().name().toLowerCase(Locale.ROOT));
    }
    if (!field.choices().isEmpty()) {
      b.put("enum", JsonArray.ofStrings(field.choices()));
    }
    JsonObject built = b.build();
    return built.isEmpty() ? null : built;
  }

  /**
   * The parameter's value for the argument's string, or null when absent; -32602 naming the
   * argument when it does not read as the parameter's type.
   */
  @Nullable
  Object read(@Nullable String value, String prompt) {
    return ParameterValues.read(field, type, value, prompt);
  }

  /** The question for a value that breaks the argument's type, or null when it reads. */
  ArgumentsNeeded.@Nullable Question check(@Nullable String value, String prompt) {
    try {
      read(value, prompt);
      return null;
    } catch (ArgumentsNeeded e) {
      return e.questions().getFirst();
    }
  }
}
