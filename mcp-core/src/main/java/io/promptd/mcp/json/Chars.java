package io.promptd.mcp.json;

import java.util.Arrays;

/**
 * The chars of a string {@link JsonReader} decodes: a plain growable array, reused from one string
 * to the next.
 */
final class Chars {
  /**
   * Allocated when a string first needs it (most have no escape and never do), at the size it asks
   * for.
   */
  private char[] a = NONE;

  private int n;
  private static final char[] NONE = new char[0];

  void clear() {
    n = 0;
  }

  void room(int more) {
    if (a.length - n < more) {
      a = Arrays.copyOf(a, Math.max(a.length == 0 ? 0 : a.length * 2, n + more));
    }
  }

  void add(char c) {
    room(1);
    a[n++] = c;
  }

  /** Adds {@code bytes[from..to)}, which are ASCII. */
  void addAscii(byte[] bytes, int from, int to) {
    room(to - from);
    for (int i = from; i < to; i++) {
      a[n++] = (char) bytes[i];
    }
  }

  void addCodePoint(int cp) {
    room(2);
    n += Character.toChars(cp, a, n);
  }

  String build() {
    return new String(a, 0, n);
  }
}
