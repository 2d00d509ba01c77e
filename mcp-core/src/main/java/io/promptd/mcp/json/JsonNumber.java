package io.promptd.mcp.json;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;

/**
 * A JSON number, kept exactly as a {@link BigDecimal} so that large ids and precise values survive a round trip.
 *
 * @param value the number
 */
public record JsonNumber(BigDecimal value) implements Json {
  /** Checks the value. */
  public JsonNumber {
    requireNonNull(value, "value");
  }

  /** Returns the integer {@code value}. */
  public static JsonNumber of(long value) {
    return new JsonNumber(BigDecimal.valueOf(value));
  }

  /** Returns the number {@code value}; NaN and infinities have no JSON form and are refused. */
  public static JsonNumber of(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("JSON has no form for " + value);
    }
    return new JsonNumber(BigDecimal.valueOf(value));
  }

  /** Whether this number is an integer (no fractional part) that fits a {@code long}. */
  public boolean isLong() {
    if (value.signum() == 0) {
      return true;
    }
    try {
      value.longValueExact();
      return true;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  /** This number as a {@code long}; call {@link #isLong()} first. */
  public long longValue() {
    return value.longValueExact();
  }

  /** This number as a {@code double}, possibly rounded. */
  public double doubleValue() {
    return value.doubleValue();
  }
}
