package io.promptd.mcp.json;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.math.BigDecimal;
import org.jspecify.annotations.Nullable;

/**
 * A JSON number, kept exactly: as a {@code long} when it is an integer that fits one (every
 * JSON-RPC id, every count), otherwise as a {@link BigDecimal}. The integer form never touches
 * {@code BigDecimal}, whose first use is costly in a cold JVM. Numerically equal numbers are equal:
 * {@code 1}, {@code 1.0} and {@code 1e0} are one number.
 */
@Stability(Stability.Tier.STABLE)
public final class JsonNumber implements Json {
  private final long integer;
  private final @Nullable BigDecimal decimal;

  private JsonNumber(long integer, @Nullable BigDecimal decimal) {
    this.integer = integer;
    this.decimal = decimal;
  }

  /** Returns the integer {@code value}. */
  public static JsonNumber of(long value) {
    return new JsonNumber(value, null);
  }

  /** Returns the number {@code value}; NaN and infinities have no JSON form and are refused. */
  public static JsonNumber of(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("JSON has no form for " + value);
    }
    if (value == Math.rint(value) && value >= -0x1p63 && value < 0x1p63) {
      return of((long) value); // an integer within a long's range (-0.0 becomes 0)
    }
    return of(BigDecimal.valueOf(value));
  }

  /**
   * Returns the number {@code value}; an integer that fits a {@code long} (such as {@code 7.0}) is
   * kept as one.
   */
  public static JsonNumber of(BigDecimal value) {
    requireNonNull(value, "value");
    if (value.signum() == 0) {
      return of(0);
    }
    if (value.scale() <= 0 || value.stripTrailingZeros().scale() <= 0) {
      try {
        return of(value.longValueExact());
      } catch (ArithmeticException e) {
        // an integer beyond a long: kept exactly below
      }
    }
    return new JsonNumber(0, value);
  }

  /** Whether this number is an integer that fits a {@code long}. */
  public boolean isLong() {
    return decimal == null;
  }

  /** This number as a {@code long}; call {@link #isLong()} first. */
  public long longValue() {
    if (decimal != null) {
      throw new ArithmeticException("not an integer that fits a long: " + decimal);
    }
    return integer;
  }

  /** This number as a {@code double}, possibly rounded. */
  public double doubleValue() {
    return decimal == null ? integer : decimal.doubleValue();
  }

  /** This number exactly, as a {@link BigDecimal}. */
  public BigDecimal value() {
    return decimal == null ? BigDecimal.valueOf(integer) : decimal;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (!(o instanceof JsonNumber other)) {
      return false;
    }
    if (decimal == null || other.decimal == null) {
      return decimal == null && other.decimal == null && integer == other.integer;
    }
    return decimal.compareTo(other.decimal) == 0;
  }

  @Override
  public int hashCode() {
    return decimal == null
        ? Long.hashCode(integer)
        : decimal.stripTrailingZeros().hashCode();
  }

  /** The number as JSON text. */
  @Override
  public String toString() {
    return decimal == null ? Long.toString(integer) : decimal.toString();
  }
}
