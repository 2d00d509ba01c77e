package io.promptd.library.internal.skills;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;

/** Checks bytes are strict UTF-8 without decoding them into a copy of their size. */
final class Utf8 {
  private Utf8() {}

  /**
   * Whether {@code bytes} are well-formed UTF-8 (no malformed or truncated sequence, no encoded
   * surrogate).
   */
  static boolean valid(byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder(); // reports what is malformed
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(8192);
    while (true) {
      CoderResult result = decoder.decode(in, out, true);
      if (result.isError()) {
        return false;
      }
      if (result.isUnderflow()) {
        return !decoder.flush(out).isError();
      }
      out.clear(); // overflow: the chars are not kept, only whether they decode
    }
  }
}
