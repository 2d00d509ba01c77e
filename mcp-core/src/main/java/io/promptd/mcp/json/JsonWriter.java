package io.promptd.mcp.json;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Writes a {@link Json} tree as compact UTF-8 JSON straight into a byte array: no generator, no
 * buffer pool, no intermediate string. Strings are escaped as RFC 8259 requires ({@code "},
 * {@code \}, control characters) and nothing more; an unpaired surrogate, which has no UTF-8 form,
 * is written as a {@code \}{@code uXXXX} escape.
 */
final class JsonWriter {
  private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
  private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
  private static final byte[] NULL = {'n', 'u', 'l', 'l'};

  /** From this many chars on a string is sized exactly before it is written. */
  private static final int LARGE = 1 << 16;

  /**
   * Room kept after a large string for the rest of its message: its closing members and brackets.
   */
  private static final int TAIL = 4096;

  private byte[] buf = new byte[256];
  private int len;

  private JsonWriter() {}

  static byte[] write(Json value, boolean newline) {
    JsonWriter w = written(value, newline);
    return Arrays.copyOf(w.buf, w.len);
  }

  /** As {@link #write}, over the writer's own array: no copy to trim it. */
  static ByteBuffer writeBuffer(Json value, boolean newline) {
    JsonWriter w = written(value, newline);
    return ByteBuffer.wrap(w.buf, 0, w.len);
  }

  private static JsonWriter written(Json value, boolean newline) {
    JsonWriter w = new JsonWriter();
    w.value(value);
    if (newline) {
      w.ensure(1);
      w.buf[w.len++] = '\n';
    }
    return w;
  }

  static String writeString(Json value) {
    JsonWriter w = new JsonWriter();
    w.value(value);
    return new String(w.buf, 0, w.len, StandardCharsets.UTF_8);
  }

  private void value(Json value) {
    switch (value) {
      case JsonObject o -> {
        ensure(1);
        buf[len++] = '{';
        boolean first = true;
        for (Map.Entry<String, Json> e : o.members().entrySet()) {
          if (!first) {
            ensure(1);
            buf[len++] = ',';
          }
          first = false;
          string(e.getKey());
          ensure(1);
          buf[len++] = ':';
          value(e.getValue());
        }
        ensure(1);
        buf[len++] = '}';
      }
      case JsonArray a -> {
        ensure(1);
        buf[len++] = '[';
        boolean first = true;
        for (Json element : a.elements()) {
          if (!first) {
            ensure(1);
            buf[len++] = ',';
          }
          first = false;
          value(element);
        }
        ensure(1);
        buf[len++] = ']';
      }
      case JsonString s -> string(s.value());
      case JsonNumber n ->
        ascii(n.isLong() ? Long.toString(n.longValue()) : n.value().toString());
      case JsonBoolean b -> raw(b.value() ? TRUE : FALSE);
      case JsonNull n -> raw(NULL);
    }
  }

  @SuppressWarnings(
      "deprecation") // String.getBytes(int, int, byte[], int): the chars' low bytes, for ASCII runs
  private void string(String s) {
    int n = s.length();
    if (n >= LARGE && len + n + 2 > buf.length) {
      // A large string (a resource's text or base64 blob) gets exactly the room it takes and a
      // little for what follows it in the message: doubling would copy it once more and leave an
      // array twice its size, for every read of a large file.
      reserve(encodedLength(s) + 2, TAIL);
    }
    // Room for the quotes and one byte a char: exact for ASCII. A char that takes more (UTF-8, an
    // escape) reserves what it needs with room for the rest, so a long ASCII string is not given
    // three times its size.
    ensure(n + 2);
    buf[len++] = '"';
    for (int i = 0; i < n; i++) {
      // The run of chars written as they are (printable ASCII but the quote and the backslash) is
      // copied in one go.
      int end = i;
      while (end < n && plain(s.charAt(end))) {
        end++;
      }
      if (end > i) {
        s.getBytes(i, end, buf, len);
        len += end - i;
        i = end;
        if (i == n) {
          break;
        }
      }
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          buf[len++] = (byte) c;
        } else {
          escape(c, n - i - 1);
        }
      } else if (c < 0x800) {
        ensure(2 + n - i);
        buf[len++] = (byte) (0xc0 | (c >> 6));
        buf[len++] = (byte) (0x80 | (c & 0x3f));
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        ensure(4 + n - i);
        buf[len++] = (byte) (0xf0 | (cp >> 18));
        buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
        buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
        buf[len++] = (byte) (0x80 | (cp & 0x3f));
      } else if (Character.isSurrogate(c)) {
        escape(c, n - i - 1);
      } else {
        ensure(3 + n - i);
        buf[len++] = (byte) (0xe0 | (c >> 12));
        buf[len++] = (byte) (0x80 | ((c >> 6) & 0x3f));
        buf[len++] = (byte) (0x80 | (c & 0x3f));
      }
    }
    ensure(1);
    buf[len++] = '"';
  }

  /**
   * Whether {@code c} is written as itself, one byte: printable ASCII other than {@code "} and
   * {@code \\}.
   */
  private static boolean plain(char c) {
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
  }

  /**
   * Writes {@code c} escaped, keeping room for the {@code rest} chars of the string still to come
   * (a byte each) and its quote.
   */
  private void escape(char c, int rest) {
    ensure(6 + rest + 1);
    buf[len++] = '\\';
    switch (c) {
      case '"' -> buf[len++] = '"';
      case '\\' -> buf[len++] = '\\';
      case '\n' -> buf[len++] = 'n';
      case '\r' -> buf[len++] = 'r';
      case '\t' -> buf[len++] = 't';
      case '\b' -> buf[len++] = 'b';
      case '\f' -> buf[len++] = 'f';
      default -> {
        buf[len++] = 'u';
        buf[len++] = HEX[(c >> 12) & 0xf];
        buf[len++] = HEX[(c >> 8) & 0xf];
        buf[len++] = HEX[(c >> 4) & 0xf];
        buf[len++] = HEX[c & 0xf];
      }
    }
  }

  private void ascii(String s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[len++] = (byte) s.charAt(i);
    }
  }

  private void raw(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, len, bytes.length);
    len += bytes.length;
  }

  /** The bytes {@code s} takes when written, quotes left out. */
  private static long encodedLength(String s) {
    int n = s.length();
    long bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (plain(c)) {
        continue;
      }
      if (c < 0x80) {
        bytes += switch (c) {
          case '"', '\\', '\n', '\r', '\t', '\b', '\f' -> 1;
          default -> 5;
        };
      } else if (c < 0x800) {
        bytes += 1;
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        bytes += 2; // four bytes for the pair's two chars
        i++;
      } else if (Character.isSurrogate(c)) {
        bytes += 5;
      } else {
        bytes += 2;
      }
    }
    return bytes;
  }

  /**
   * Grows the array, if needed, to hold {@code more} bytes and then {@code slack} more: no
   * doubling.
   */
  private void reserve(long more, int slack) {
    long need = len + more;
    if (need > buf.length) {
      if (need + slack > Integer.MAX_VALUE - 16) {
        throw new JsonException("JSON text too large to write: over 2 GiB");
      }
      buf = Arrays.copyOf(buf, (int) need + slack);
    }
  }

  private void ensure(int more) {
    if (len + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
    }
  }
}
