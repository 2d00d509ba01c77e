package io.promptd.library.parse;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The type an argument's value must have. MCP sends every argument as a string; these check the
 * text.
 */
public enum ArgType {
  /** Any text. */
  STRING,
  /** A whole number such as {@code -3} or {@code 42}. */
  INTEGER,
  /** A decimal number such as {@code 2.5} or {@code 1e3}. */
  NUMBER,
  /** {@code true} or {@code false}, in any case. */
  BOOLEAN;

  private static final Pattern INTEGER_TEXT = Pattern.compile("[-+]?\\d{1,100}");

  /** The name used in front matter. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The type named {@code id} in front matter, or null. */
  static @Nullable ArgType of(String id) {
    for (ArgType t : values()) {
      if (t.id().equals(id)) {
        return t;
      }
    }
    return null;
  }

  /** Whether {@code value} is a valid text form of this type. */
  public boolean accepts(String value) {
    return switch (this) {
      case STRING -> true;
      case INTEGER -> INTEGER_TEXT.matcher(value).matches();
      case NUMBER -> isNumber(value);
      case BOOLEAN -> value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
    };
  }

  private static boolean isNumber(String value) {
    // BigDecimal rejects NaN, Infinity, hex floats and stray whitespace, which Double.parseDouble
    // accepts.
    if (value.length() > 100) {
      return false;
    }
    try {
      new BigDecimal(value);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }
}
