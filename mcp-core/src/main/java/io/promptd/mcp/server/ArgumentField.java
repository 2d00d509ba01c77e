package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.protocol.PromptArgument;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How a prompt argument is asked for in a form, when the server elicits it from the user: its label, help text,
 * type, choices and default. MCP sends every argument as a string; the type only shapes the form field and checks the
 * answer, which becomes a string again.
 *
 * @param name the argument's name
 * @param title a display name, or null
 * @param description what it is for, or null
 * @param type the form field's type
 * @param choices the only allowed values (a single-select field), or none
 * @param choiceTitles display names of choices, by value; empty for none
 * @param defaultValue the value the field starts with, or null
 * @param pattern a regular expression the whole value must match, or null; forms cannot express it, so the server
 *     checks the answer and says so in the field's description
 * @param required whether the prompt needs a value
 */
public record ArgumentField(String name, @Nullable String title, @Nullable String description, Type type,
    List<String> choices, Map<String, String> choiceTitles, @Nullable String defaultValue, @Nullable String pattern,
    boolean required) {
  /** A form field's type. */
  public enum Type {
    /** Any text. */
    STRING,
    /** A decimal number. */
    NUMBER,
    /** A whole number. */
    INTEGER,
    /** Yes or no. */
    BOOLEAN
  }

  /** Checks the fields and copies the choices. */
  public ArgumentField {
    requireNonNull(name, "name");
    requireNonNull(type, "type");
    choices = List.copyOf(requireNonNull(choices, "choices"));
    choiceTitles = Map.copyOf(requireNonNull(choiceTitles, "choiceTitles"));
  }

  /** This field starting with {@code value} instead of its default (a value given before, offered for checking). */
  public ArgumentField withDefault(@Nullable String value) {
    return new ArgumentField(name, title, description, type, choices, choiceTitles, value, pattern, required);
  }

  /** A plain text field for an argument as {@code prompts/list} shows it. */
  public static ArgumentField of(PromptArgument argument) {
    return new ArgumentField(argument.name(), argument.title(), argument.description(), Type.STRING, List.of(), Map.of(),
        null, null, argument.required());
  }
}
