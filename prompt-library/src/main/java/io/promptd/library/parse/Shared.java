package io.promptd.library.parse;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One copy of the short strings that thousands of prompt files repeat — argument names, enum
 * values, defaults — kept for as long as a prompt holds them: the JVM's string table, whose entries
 * go when nothing refers to them. Longer strings (descriptions, text) are rarely the same and are
 * left as they are, so that a file's content cannot fill the table.
 */
public final class Shared {
  /** Strings up to this many characters are shared. */
  private static final int MAX_LENGTH = 64;

  private Shared() {}

  static @Nullable String string(@Nullable String s) {
    return s == null || s.length() > MAX_LENGTH ? s : s.intern();
  }

  static List<String> strings(List<String> values) {
    List<String> out = new ArrayList<>(values.size());
    for (String v : values) {
      out.add(v.length() > MAX_LENGTH ? v : v.intern());
    }
    return out;
  }
}
