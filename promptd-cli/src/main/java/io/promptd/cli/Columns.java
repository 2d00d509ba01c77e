package io.promptd.cli;

/**
 * How many terminal columns text takes: a CJK ideograph, a kana, a Hangul syllable or a fullwidth
 * form takes two, a combining mark or a zero-width character none, anything else one. Columns of
 * names written in Chinese or Japanese then line up as they do in Latin script.
 */
final class Columns {
  private Columns() {}

  /** The columns {@code text} takes in a terminal. */
  static int width(String text) {
    int width = 0;
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      width += width(c);
      i += Character.charCount(c);
    }
    return width;
  }

  /** {@code text} followed by spaces up to {@code columns}. */
  static String pad(String text, int columns) {
    return text + " ".repeat(Math.max(0, columns - width(text)));
  }

  private static int width(int c) {
    int type = Character.getType(c);
    if (type == Character.NON_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || type == Character.FORMAT
        || c == 0x200B) {
      return 0;
    }
    return wide(c) ? 2 : 1;
  }

  /** East Asian Wide and Fullwidth characters (Unicode's EastAsianWidth W and F), by range. */
  private static boolean wide(int c) {
    return (c >= 0x1100 && c <= 0x115F) // Hangul Jamo initials
        || (c >= 0x2E80 && c <= 0x303E) // CJK radicals, Kangxi, ideographic punctuation
        || (c >= 0x3041 && c <= 0x33FF) // kana, Bopomofo, Hangul compatibility, CJK symbols
        || (c >= 0x3400 && c <= 0x4DBF) // CJK extension A
        || (c >= 0x4E00 && c <= 0x9FFF) // CJK unified ideographs
        || (c >= 0xA000 && c <= 0xA4CF) // Yi
        || (c >= 0xAC00 && c <= 0xD7A3) // Hangul syllables
        || (c >= 0xF900 && c <= 0xFAFF) // CJK compatibility ideographs
        || (c >= 0xFE30 && c <= 0xFE4F) // CJK compatibility forms
        || (c >= 0xFF00 && c <= 0xFF60) // fullwidth forms
        || (c >= 0xFFE0 && c <= 0xFFE6) // fullwidth signs
        || (c >= 0x1F300 && c <= 0x1F64F) // pictographs, emoticons
        || (c >= 0x1F900 && c <= 0x1F9FF) // supplemental pictographs
        || (c >= 0x20000 && c <= 0x3FFFD); // CJK extensions B and later
  }
}
