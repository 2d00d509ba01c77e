package io.promptd.cli;

import java.io.Serial;
import org.jspecify.annotations.Nullable;

/**
 * A command line that makes no sense; the message says why, in English. One made {@link #of} a text
 * of {@link CliText} is said in the user's language too ({@link #message}).
 */
final class UsageException extends RuntimeException {
  @Serial
  private static final long serialVersionUID = 2L;

  private final @Nullable String key;
  private final String[] values;

  UsageException(String message) {
    super(message);
    this.key = null;
    this.values = new String[0];
  }

  private UsageException(String key, String[] values) {
    super(CliText.english().get(key, (Object[]) values));
    this.key = key;
    this.values = values;
  }

  /** The usage error that text {@code key} of {@link CliText} says, with {@code values}. */
  static UsageException of(String key, Object... values) {
    String[] strings = new String[values.length];
    for (int i = 0; i < values.length; i++) {
      strings[i] = String.valueOf(values[i]);
    }
    return new UsageException(key, strings);
  }

  /** What went wrong, in {@code text}'s language when it is one of its texts, else in English. */
  String message(CliText text) {
    return key == null ? String.valueOf(getMessage()) : text.get(key, (Object[]) values);
  }
}
