package io.promptd.mcp.json;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads one JSON value (RFC 8259, strictly) from UTF-8 bytes into a {@link Json} tree: objects keep
 * their member order and refuse duplicate names, nesting is bounded, strings are checked to be
 * well-formed UTF-8, and integers that fit a {@code long} are read without {@code BigDecimal}.
 * Every problem is a {@link JsonException} that says what and where (line and column, 1-based), in
 * words safe to show a peer.
 */
final class JsonReader {
  /**
   * Longer numbers are refused: nothing in MCP needs them, and converting them costs time quadratic
   * in length.
   */
  static final int MAX_NUMBER_LENGTH = 1000;

  private final byte[] in;
  private final int start;
  private final int end;
  private int pos;
  private final Chars chars = new Chars();

  private JsonReader(byte[] in, int offset, int length) {
    this.in = in;
    this.start = offset;
    this.end = offset + length;
    this.pos = offset;
  }

  static Json read(byte[] utf8, int offset, int length) {
    if (offset < 0 || length < 0 || offset + length > utf8.length) {
      throw new IndexOutOfBoundsException(
          "offset " + offset + ", length " + length + " of " + utf8.length);
    }
    JsonReader r = new JsonReader(utf8, offset, length);
    if (length >= 3
        && utf8[offset] == (byte) 0xef
        && utf8[offset + 1] == (byte) 0xbb
        && utf8[offset + 2] == (byte) 0xbf) {
      // A UTF-8 byte order mark, which RFC 8259 lets a reader ignore (some Windows tools write one)
      r.pos += 3;
    }
    r.skipWhitespace();
    if (r.pos == r.end) {
      throw new JsonException("empty input: expected a JSON value");
    }
    Json value = r.value(0);
    r.skipWhitespace();
    if (r.pos < r.end) {
      throw r.error("unexpected text after the JSON value");
    }
    return value;
  }

  private Json value(int depth) {
    if (pos == end) {
      throw error("unexpected end of input: expected a value");
    }
    return switch (in[pos]) {
      case '{' -> object(depth + 1);
      case '[' -> array(depth + 1);
      case '"' -> new JsonString(string());
      case 't' -> literal("true", JsonBoolean.TRUE);
      case 'f' -> literal("false", JsonBoolean.FALSE);
      case 'n' -> literal("null", JsonNull.INSTANCE);
      default -> {
        byte b = in[pos];
        if (b == '-' || (b >= '0' && b <= '9')) {
          yield number();
        }
        throw error("unexpected " + describe(b) + ": expected a value");
      }
    };
  }

  private JsonObject object(int depth) {
    nest(depth);
    pos++; // {
    Members members = new Members(4);
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return JsonObject.EMPTY;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error(
            pos == end
                ? "unexpected end of input: expected a member name"
                : "unexpected " + describe(in[pos]) + ": expected a member name in double quotes");
      }
      int at = pos;
      String name = string();
      skipWhitespace();
      expect(':', "':' after a member name");
      skipWhitespace();
      if (members.set(name, value(depth)) != null) {
        throw errorAt(at, "duplicate member name '" + name + "'");
      }
      skipWhitespace();
      int c = peek();
      pos++;
      if (c == '}') {
        return JsonObject.adopt(members);
      }
      if (c != ',') {
        pos--;
        throw error(
            c < 0
                ? "unexpected end of input: expected ',' or '}'"
                : "unexpected " + describe(in[pos]) + ": expected ',' or '}'");
      }
    }
  }

  private JsonArray array(int depth) {
    nest(depth);
    pos++; // [
    List<Json> elements = new ArrayList<>();
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return new JsonArray(elements);
    }
    while (true) {
      skipWhitespace();
      elements.add(value(depth));
      skipWhitespace();
      int c = peek();
      pos++;
      if (c == ']') {
        return new JsonArray(elements);
      }
      if (c != ',') {
        pos--;
        throw error(
            c < 0
                ? "unexpected end of input: expected ',' or ']'"
                : "unexpected " + describe(in[pos]) + ": expected ',' or ']'");
      }
    }
  }

  private void nest(int depth) {
    if (depth > JsonCodec.MAX_NESTING_DEPTH) {
      throw error("nesting deeper than " + JsonCodec.MAX_NESTING_DEPTH + " levels");
    }
  }

  /** A string at {@code pos} (its opening quote); leaves {@code pos} after the closing quote. */
  private String string() {
    int from = ++pos;
    // Fast path: printable ASCII without escapes, the common case for names and most values.
    while (pos < end) {
      byte b = in[pos];
      if (b == '"') {
        String s = new String(in, from, pos - from, StandardCharsets.ISO_8859_1);
        pos++;
        return s;
      }
      if (b == '\\' || b < 0x20) { // a negative byte is non-ASCII
        break;
      }
      pos++;
    }
    chars.clear();
    // Room for the whole string at once: it ends at the first quote that no backslash escapes, and
    // has at most as many chars as bytes. Growing by doubling instead cost four times its size.
    int close = pos;
    while (close < end && in[close] != '"') {
      close += in[close] == '\\' ? 2 : 1;
    }
    chars.room(Math.min(close, end) - from);
    chars.addAscii(in, from, pos);
    while (true) {
      if (pos == end) {
        throw error("unexpected end of input inside a string");
      }
      int b = in[pos] & 0xff;
      if (b == '"') {
        pos++;
        return chars.build();
      }
      if (b == '\\') {
        escape();
      } else if (b < 0x20) {
        throw error("control character U+" + hex4(b) + " inside a string must be escaped");
      } else if (b < 0x80) {
        int run = pos + 1; // the run of plain ASCII after it, added in one go
        while (run < end && in[run] >= 0x20 && in[run] != '"' && in[run] != '\\') {
          run++;
        }
        chars.addAscii(in, pos, run);
        pos = run;
      } else {
        multiByte(b);
      }
    }
  }

  private void escape() {
    if (pos + 1 >= end) {
      throw error("unexpected end of input inside a string escape");
    }
    byte e = in[pos + 1];
    switch (e) {
      case '"' -> chars.add('"');
      case '\\' -> chars.add('\\');
      case '/' -> chars.add('/');
      case 'b' -> chars.add('\b');
      case 'f' -> chars.add('\f');
      case 'n' -> chars.add('\n');
      case 'r' -> chars.add('\r');
      case 't' -> chars.add('\t');
      case 'u' -> {
        int value = 0;
        for (int i = 2; i < 6; i++) {
          int digit = pos + i < end ? Character.digit(in[pos + i], 16) : -1;
          if (digit < 0) {
            throw error(
                pos + i < end
                    ? "invalid \\u escape: expected four hexadecimal digits"
                    : "unexpected end of input inside a string escape");
          }
          value = value * 16 + digit;
        }
        chars.add((char) value); // surrogates pass as they are, paired or not, as JSON allows
        pos += 6;
        return;
      }
      default ->
        throw error(
            "invalid escape '\\" + (e >= 0x20 && e < 0x7f ? String.valueOf((char) e) : "?") + "'");
    }
    pos += 2;
  }

  /**
   * A UTF-8 sequence starting with the byte {@code lead} (at {@code pos}); refuses anything
   * malformed.
   */
  private void multiByte(int lead) {
    int need;
    int cp;
    int min;
    if (lead >= 0xc2 && lead <= 0xdf) {
      need = 1;
      cp = lead & 0x1f;
      min = 0x80;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      cp = lead & 0x0f;
      min = 0x800;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      cp = lead & 0x07;
      min = 0x10000;
    } else {
      throw error("invalid UTF-8 byte 0x" + hex2(lead));
    }
    if (pos + need >= end) {
      throw error("truncated UTF-8 sequence");
    }
    for (int i = 1; i <= need; i++) {
      int b = in[pos + i] & 0xff;
      if ((b & 0xc0) != 0x80) {
        throw error("invalid UTF-8 sequence");
      }
      cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      throw error("invalid UTF-8 sequence");
    }
    chars.addCodePoint(cp);
    pos += need + 1;
  }

  /**
   * {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}; integers of up to 18 digits are read as
   * a long.
   */
  private JsonNumber number() {
    int from = pos;
    boolean negative = peek() == '-';
    if (negative) {
      pos++;
    }
    int digitsFrom = pos;
    if (peek() == '0') {
      pos++;
      if (isDigit(peek())) {
        throw error("invalid number: no leading zeros");
      }
    } else if (isDigit(peek())) {
      while (isDigit(peek())) {
        pos++;
      }
    } else {
      throw error(
          pos == end
              ? "unexpected end of input inside a number"
              : "invalid number: expected a digit");
    }
    int digits = pos - digitsFrom;
    boolean integral = true;
    if (peek() == '.') {
      integral = false;
      pos++;
      if (!isDigit(peek())) {
        throw error("invalid number: expected a digit after '.'");
      }
      while (isDigit(peek())) {
        pos++;
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      pos++;
      if (peek() == '+' || peek() == '-') {
        pos++;
      }
      if (!isDigit(peek())) {
        throw error("invalid number: expected a digit in the exponent");
      }
      while (isDigit(peek())) {
        pos++;
      }
    }
    if (pos - from > MAX_NUMBER_LENGTH) {
      throw errorAt(from, "number longer than " + MAX_NUMBER_LENGTH + " characters");
    }
    if (integral && digits <= 18) {
      long value = 0;
      for (int i = digitsFrom; i < pos; i++) {
        value = value * 10 + (in[i] - '0');
      }
      return JsonNumber.of(negative ? -value : value);
    }
    try {
      return JsonNumber.of(
          new BigDecimal(new String(in, from, pos - from, StandardCharsets.US_ASCII)));
    } catch (NumberFormatException | ArithmeticException e) {
      throw errorAt(from, "number out of range");
    }
  }

  private Json literal(String word, Json value) {
    int n = word.length();
    for (int i = 0; i < n; i++) {
      if (pos + i >= end || in[pos + i] != word.charAt(i)) {
        throw error(
            pos + i >= end
                ? "unexpected end of input: expected '" + word + "'"
                : "unexpected " + describe(in[pos]) + ": expected a value");
      }
    }
    pos += n;
    return value;
  }

  private void expect(char c, String what) {
    if (peek() != c) {
      throw error(
          pos == end
              ? "unexpected end of input: expected " + what
              : "unexpected " + describe(in[pos]) + ": expected " + what);
    }
    pos++;
  }

  private void skipWhitespace() {
    while (pos < end) {
      byte b = in[pos];
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return;
      }
      pos++;
    }
  }

  /** The byte at {@code pos}, or -1 at the end. */
  private int peek() {
    return pos < end ? in[pos] & 0xff : -1;
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }

  private static String describe(byte b) {
    int c = b & 0xff;
    return c >= 0x20 && c < 0x7f ? "character '" + (char) c + "'" : "byte 0x" + hex2(c);
  }

  private static String hex2(int b) {
    return "" + Character.forDigit(b >> 4, 16) + Character.forDigit(b & 0xf, 16);
  }

  private static String hex4(int c) {
    return String.format(Locale.ROOT, "%04X", c);
  }

  private JsonException error(String what) {
    return errorAt(pos, what);
  }

  /**
   * {@code what} at the line and column of byte {@code at} (columns count characters, not bytes).
   */
  private JsonException errorAt(int at, String what) {
    int line = 1;
    int column = 1;
    for (int i = start; i < at && i < end; i++) {
      if (in[i] == '\n') {
        line++;
        column = 1;
      } else if ((in[i] & 0xc0) != 0x80) {
        column++;
      }
    }
    return new JsonException(what + " at line " + line + ", column " + column);
  }
}
