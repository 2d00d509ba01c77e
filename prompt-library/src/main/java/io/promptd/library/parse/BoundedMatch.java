package io.promptd.library.parse;

import java.util.regex.Pattern;

/**
 * Matching a prompt file's {@code pattern} against a client's value within a budget. Prompt files
 * are untrusted, and a pattern that backtracks catastrophically (such as {@code (a+)+$}) would hold
 * a server thread for minutes on a value of a few dozen characters. The matcher reads the value
 * through a view that counts reads: past {@link #budget} reads the match is abandoned. A pattern
 * that matches in linear time reads each character a few times and stays far below.
 */
final class BoundedMatch {
  /** What a match found. */
  enum Result {
    MATCHES,
    DOES_NOT_MATCH,
    /** The budget ran out: the value is treated as not matching, and the error says why. */
    TOO_COSTLY
  }

  private BoundedMatch() {}

  /**
   * How many reads of the value a match may make: a fixed floor plus a multiple of the value's
   * length.
   */
  static long budget(int length) {
    return 100_000L + 64L * length;
  }

  /**
   * Whether the whole of {@code value} matches {@code pattern}, within the budget for its length.
   */
  static Result matches(Pattern pattern, String value) {
    try {
      return pattern.matcher(new Counted(value, budget(value.length()))).matches()
          ? Result.MATCHES
          : Result.DOES_NOT_MATCH;
    } catch (OutOfBudget e) {
      return Result.TOO_COSTLY;
    } catch (StackOverflowError e) {
      return Result
          // Deep recursion in the regex engine on a long value: as costly, and as harmless here
          .TOO_COSTLY;
    }
  }

  /** Thrown from inside the regex engine when the budget is spent; carries no stack trace. */
  private static final class OutOfBudget extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfBudget() {
      super(null, null, false, false);
    }
  }

  /** The value as the regex engine reads it, one counted character at a time. */
  private static final class Counted implements CharSequence {
    private final String text;
    private final int from;
    private final int to;
    private final long[] left;

    Counted(String text, long budget) {
      this(text, 0, text.length(), new long[] {budget});
    }

    private Counted(String text, int from, int to, long[] left) {
      this.text = text;
      this.from = from;
      this.to = to;
      this.left = left;
    }

    @Override
    public char charAt(int index) {
      if (--left[0] < 0) {
        throw new OutOfBudget();
      }
      return text.charAt(from + index);
    }

    @Override
    public int length() {
      return to - from;
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      if (start < 0 || end > length() || start > end) {
        throw new IndexOutOfBoundsException(
            "subSequence(" + start + ", " + end + ") of " + length());
      }
      return new Counted(text, from + start, from + end, left); // shares the budget
    }

    @Override
    public String toString() {
      return text.substring(from, to);
    }
  }
}
