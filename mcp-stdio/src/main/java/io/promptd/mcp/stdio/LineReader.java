package io.promptd.mcp.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Splits a byte stream into lines without decoding them, holding at most {@code maxLineBytes} of
 * any one line: a longer line is skipped to its end and reported as {@link Line#tooLong()}, so
 * hostile input cannot exhaust memory.
 */
final class LineReader {
  private final InputStream in;
  private final int maxLineBytes;
  private final Runnable beforeRead;
  private final byte[] buffer = new byte[64 * 1024];
  private int pos;
  private int limit;
  private byte[] line = new byte[1024];

  /**
   * {@code beforeRead} runs whenever the reader is about to read (and so may block): the moment to
   * flush answers.
   */
  LineReader(InputStream in, int maxLineBytes, Runnable beforeRead) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
    this.beforeRead = beforeRead;
  }

  /**
   * The next line without its terminator ({@code \n} or {@code \r\n}), or null at end of stream.
   */
  @Nullable
  Line next() throws IOException {
    int length = 0;
    boolean tooLong = false;
    boolean sawAny = false;
    while (true) {
      if (pos == limit && !fill()) {
        return sawAny ? finish(length, tooLong) : null;
      }
      sawAny = true;
      int start = pos;
      while (pos < limit && buffer[pos] != '\n') {
        pos++;
      }
      int chunk = pos - start;
      if (!tooLong) {
        if (length + chunk > maxLineBytes) {
          tooLong = true;
        } else {
          append(start, chunk, length);
          length += chunk;
        }
      }
      if (pos < limit) {
        pos++; // the newline
        return finish(length, tooLong);
      }
    }
  }

  private Line finish(int length, boolean tooLong) {
    if (tooLong) {
      return new Line(new byte[0], 0, true);
    }
    if (length > 0 && line[length - 1] == '\r') {
      length--;
    }
    return new Line(line, length, false);
  }

  private void append(int start, int chunk, int length) {
    if (length + chunk > line.length) {
      line = Arrays.copyOf(line, Math.min(maxLineBytes, Math.max(line.length * 2, length + chunk)));
    }
    System.arraycopy(buffer, start, line, length, chunk);
  }

  private boolean fill() throws IOException {
    beforeRead.run();
    int n = in.read(buffer, 0, buffer.length);
    if (n <= 0) {
      return false;
    }
    pos = 0;
    limit = n;
    return true;
  }

  /** One line. Its bytes are valid until the next call to {@link LineReader#next()}. */
  static final class Line {
    private final byte[] bytes;
    private final int length;
    private final boolean tooLong;

    Line(byte[] bytes, int length, boolean tooLong) {
      this.bytes = bytes;
      this.length = length;
      this.tooLong = tooLong;
    }

    /** The buffer holding the line. */
    byte[] bytes() {
      return bytes;
    }

    /** How many bytes of {@link #bytes()} are the line. */
    int length() {
      return length;
    }

    /** Whether the line exceeded the limit and was skipped. */
    boolean tooLong() {
      return tooLong;
    }

    boolean isBlank() {
      for (int i = 0; i < length; i++) {
        byte b = bytes[i];
        if (b != ' ' && b != '\t' && b != '\r') {
          return false;
        }
      }
      return true;
    }
  }
}
