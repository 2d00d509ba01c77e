package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import java.text.Normalizer;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks text that comes from the network as a value to render: a JSON string may spell an unpaired
 * surrogate ({@code "\ud800"}), which is no Unicode character and has no UTF-8 form. It is refused
 * with -32602 rather than replaced by U+FFFD: the client sent broken text (a string cut inside a
 * pair), and rendering something other than what it sent, without a word, would hide that; the
 * error says where, so the client can fix it.
 *
 * <p>Names from the network are matched to the names a prompt declares regardless of Unicode
 * normalisation: NFC and NFD spell the same name.
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

  /**
   * {@code name} spelled as one of {@code declared} spells it when the two differ only in Unicode
   * normalisation (a client on macOS may send a name in NFD that a prompt declares in NFC), else
   * {@code name} as it is. A name of ASCII only is never looked at twice.
   */
  public static String spelledAs(Collection<String> declared, String name) {
    if (ascii(name) || declared.contains(name)) {
      return name;
    }
    String wanted = Normalizer.normalize(name, Normalizer.Form.NFC);
    for (String d : declared) {
      if (Normalizer.normalize(d, Normalizer.Form.NFC).equals(wanted)) {
        return d;
      }
    }
    return name;
  }

  /**
   * {@code values}, by argument name, with every name {@linkplain #spelledAs spelled as}
   * {@code prompt} declares it.
   */
  public static Map<String, String> keysAs(Prompt prompt, Map<String, String> values) {
    boolean ascii = true;
    for (String key : values.keySet()) {
      ascii &= ascii(key);
    }
    if (ascii) {
      return values;
    }
    List<String> declared =
        prompt.arguments().stream().map(PromptArgument::name).toList();
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(spelledAs(declared, k), v));
    return out;
  }

  /** {@code name} in NFC; a name of ASCII only as it is. */
  public static String nfc(String name) {
    return ascii(name) ? name : Normalizer.normalize(name, Normalizer.Form.NFC);
  }

  private static boolean ascii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
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
