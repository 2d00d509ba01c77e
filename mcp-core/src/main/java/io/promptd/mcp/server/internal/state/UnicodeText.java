package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.jsonrpc.McpException;

/**
 * Checks text that comes from the network as a value to render: a JSON string may spell an unpaired
 * surrogate ({@code "\ud800"}), which is no Unicode character and has no UTF-8 form. It is refused
 * with -32602 rather than replaced by U+FFFD: the client sent broken text (a string cut inside a
 * pair), and rendering something other than what it sent, without a word, would hide that; the
 * error says where, so the client can fix it.
 */
public final class UnicodeText {
  private UnicodeText() {}

  /**
   * {@code text}, when it holds no lone surrogate; else -32602 naming {@code what} (such as
   * "argument 'x'").
   */
  public static String checked(String text, String what) {
    int at = loneSurrogate(text);
    if (at >= 0) {
      throw McpException.invalidParams(
          what + " is not valid Unicode: a lone surrogate at character " + at);
    }
    return text;
  }

  /** The index of the first surrogate in {@code text} that is not half of a pair, or -1. */
  static int loneSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++; // a pair
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }
}
