package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.PromptArgument;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a prompt argument is asked for in a form, when the server elicits it from the user: its
 * label, help text, type, choices and default. MCP sends every argument as a string; the type only
 * shapes the form field and checks the answer, which becomes a string again. Made with
 * {@link #builder(String)}:
 *
 * <pre>{@code
 * ArgumentField language = ArgumentField.builder("language").title("Language")
 *     .choices(List.of("French", "German")).defaultValue("French").required(true).build();
 * }</pre>
 */
@Stability(Stability.Tier.STABLE)
public final class ArgumentField {
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

  private final String name;
  private final @Nullable String title;
  private final @Nullable String description;
  private final Type type;
  private final List<String> choices;
  private final Map<String, String> choiceTitles;
  private final @Nullable String defaultValue;
  private final @Nullable String pattern;
  private final boolean required;

  private ArgumentField(Builder b) {
    this.name = b.name;
    this.title = b.title;
    this.description = b.description;
    this.type = b.type;
    this.choices = b.choices;
    this.choiceTitles = b.choiceTitles;
    this.defaultValue = b.defaultValue;
    this.pattern = b.pattern;
    this.required = b.required;
  }

  /**
   * A field for the argument {@code name}: plain text, optional, no choices, until the builder says
   * otherwise.
   */
  public static Builder builder(String name) {
    return new Builder(requireNonNull(name, "name"));
  }

  /** A plain text field for an argument as {@code prompts/list} shows it. */
  public static ArgumentField of(PromptArgument argument) {
    return builder(argument.name())
        .title(argument.title())
        .description(argument.description())
        .required(argument.required())
        .build();
  }

  /** A builder that starts as a copy of this field. */
  public Builder toBuilder() {
    return builder(name)
        .title(title)
        .description(description)
        .type(type)
        .choices(choices)
        .choiceTitles(choiceTitles)
        .defaultValue(defaultValue)
        .pattern(pattern)
        .required(required);
  }

  /**
   * This field starting with {@code value} instead of its default (a value given before, offered
   * for checking).
   */
  public ArgumentField withDefault(@Nullable String value) {
    return toBuilder().defaultValue(value).build();
  }

  /** The argument's name. */
  public String name() {
    return name;
  }

  /** A display name, or null. */
  public @Nullable String title() {
    return title;
  }

  /** What the argument is for, or null. */
  public @Nullable String description() {
    return description;
  }

  /** The form field's type. */
  public Type type() {
    return type;
  }

  /** The only allowed values (a single-select field), or none. */
  public List<String> choices() {
    return choices;
  }

  /** Display names of choices, by value; empty for none. */
  public Map<String, String> choiceTitles() {
    return choiceTitles;
  }

  /** The value the field starts with, or null. */
  public @Nullable String defaultValue() {
    return defaultValue;
  }

  /**
   * A regular expression the whole value must match, or null; forms cannot express it, so the
   * server checks the answer and says so in the field's description.
   */
  public @Nullable String pattern() {
    return pattern;
  }

  /** Whether the prompt needs a value. */
  public boolean required() {
    return required;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ArgumentField f
        && name.equals(f.name)
        && Objects.equals(title, f.title)
        && Objects.equals(description, f.description)
        && type == f.type
        && choices.equals(f.choices)
        && choiceTitles.equals(f.choiceTitles)
        && Objects.equals(defaultValue, f.defaultValue)
        && Objects.equals(pattern, f.pattern)
        && required == f.required;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        name, title, description, type, choices, choiceTitles, defaultValue, pattern, required);
  }

  @Override
  public String toString() {
    return "ArgumentField[name=" + name + ", type=" + type + ", required=" + required + ", choices="
        + choices + "]";
  }

  /** Sets up an {@link ArgumentField}; every setter checks its argument. */
  public static final class Builder {
    private final String name;
    private @Nullable String title;
    private @Nullable String description;
    private Type type = Type.STRING;
    private List<String> choices = List.of();
    private Map<String, String> choiceTitles = Map.of();
    private @Nullable String defaultValue;
    private @Nullable String pattern;
    private boolean required;

    private Builder(String name) {
      this.name = name;
    }

    /** A display name, or null for none. */
    public Builder title(@Nullable String title) {
      this.title = title;
      return this;
    }

    /** What the argument is for, or null for nothing. */
    public Builder description(@Nullable String description) {
      this.description = description;
      return this;
    }

    /** The form field's type (default {@link Type#STRING}). */
    public Builder type(Type type) {
      this.type = requireNonNull(type, "type");
      return this;
    }

    /** The only allowed values, copied; empty (the default) for free input. */
    public Builder choices(List<String> choices) {
      this.choices = List.copyOf(requireNonNull(choices, "choices"));
      return this;
    }

    /** Display names of choices, by value, copied; empty (the default) for none. */
    public Builder choiceTitles(Map<String, String> choiceTitles) {
      this.choiceTitles = Map.copyOf(requireNonNull(choiceTitles, "choiceTitles"));
      return this;
    }

    /** The value the field starts with, or null (the default) for none. */
    public Builder defaultValue(@Nullable String defaultValue) {
      this.defaultValue = defaultValue;
      return this;
    }

    /** A regular expression the whole value must match, or null (the default) for none. */
    public Builder pattern(@Nullable String pattern) {
      this.pattern = pattern;
      return this;
    }

    /** Whether the prompt needs a value (default false). */
    public Builder required(boolean required) {
      this.required = required;
      return this;
    }

    /** The field. */
    public ArgumentField build() {
      return new ArgumentField(this);
    }
  }
}
