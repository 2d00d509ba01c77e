package io.promptd.store;

import io.promptd.mcp.api.Stability;
import java.util.List;

/**
 * One version's share of an A/B split: {@code promptd label split LABEL NAME 7:90 8:10} gives
 * version 7 the weight 90 and version 8 the weight 10.
 *
 * @param version the file's own version (see {@link FileVersion#version})
 * @param weight its share, 1 to {@value #MAX_WEIGHT}, relative to the split's total
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record SplitShare(int version, int weight) {
  /** The largest weight one version may have. */
  public static final int MAX_WEIGHT = 1_000_000;

  /** Checks the fields. */
  public SplitShare {
    if (version <= 0) {
      throw new IllegalArgumentException("a version is a positive number, not " + version);
    }
    if (weight <= 0 || weight > MAX_WEIGHT) {
      throw new IllegalArgumentException(
          "a split's weight is 1 to " + MAX_WEIGHT + ", not " + weight);
    }
  }

  /**
   * Reads {@code VERSION:WEIGHT} ({@code 7:90}).
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public static SplitShare parse(String text) {
    int colon = text.indexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' is not VERSION:WEIGHT (for example 7:90)");
    }
    try {
      return new SplitShare(
          Integer.parseInt(text.substring(0, colon)), Integer.parseInt(text.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not VERSION:WEIGHT (for example 7:90)", e);
    }
  }

  /** A whole split as given on the command line and recorded with its move: {@code 7:90 8:10}. */
  public static String text(List<SplitShare> shares) {
    return String.join(" ", shares.stream().map(SplitShare::toString).toList());
  }

  /** As given on the command line: {@code 7:90}. */
  @Override
  public String toString() {
    return version + ":" + weight;
  }
}
