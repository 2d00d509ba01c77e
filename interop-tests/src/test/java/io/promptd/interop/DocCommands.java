package io.promptd.interop;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonString;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What the docs tell a reader to type or write, read from the docs themselves, so that the tests
 * run it as written and a doc cannot drift from what was tested.
 */
final class DocCommands {
  private DocCommands() {}

  /**
   * The body of the first fenced block in {@code lang} that follows the line {@code heading} in
   * {@code file}.
   */
  static String block(Path file, String heading, String lang) throws IOException {
    String text = Files.readString(file);
    int at = text.indexOf("\n" + heading + "\n");
    if (at < 0) {
      throw new AssertionError(file + " has no heading '" + heading + "'");
    }
    String fence = "\n```" + lang + "\n";
    int start = text.indexOf(fence, at);
    if (start < 0) {
      throw new AssertionError(file + " has no ```" + lang + " block after '" + heading + "'");
    }
    start += fence.length();
    return text.substring(start, text.indexOf("\n```", start) + 1);
  }

  /**
   * The commands of a shell block, each as its words: comments dropped, lines ending in a backslash
   * joined, quotes removed, {@code $NAME} replaced from {@code variables} (outside single quotes).
   * Enough for the docs' commands; not a shell.
   */
  static List<List<String>> commands(String block, Map<String, String> variables) {
    List<List<String>> commands = new ArrayList<>();
    for (String line : block.replace("\\\n", " ").split("\n", -1)) {
      if (!line.isBlank() && !line.strip().startsWith("#")) {
        commands.add(words(line, variables));
      }
    }
    return commands;
  }

  private static List<String> words(String line, Map<String, String> variables) {
    List<String> words = new ArrayList<>();
    @Nullable StringBuilder word = null;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote == 0 && Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
        continue;
      }
      if (word == null) {
        word = new StringBuilder();
      }
      if (quote == 0 && (c == '\'' || c == '"')) {
        quote = c;
      } else if (c == quote) {
        quote = 0;
      } else if (c == '$' && quote != '\'') {
        int end = i + 1;
        while (end < line.length()
            && (Character.isLetterOrDigit(line.charAt(end)) || line.charAt(end) == '_')) {
          end++;
        }
        String name = line.substring(i + 1, end);
        String value = variables.get(name);
        if (value == null) {
          throw new AssertionError("$" + name + " in '" + line + "': no value given for it");
        }
        word.append(value);
        i = end - 1;
      } else {
        word.append(c);
      }
    }
    if (quote != 0) {
      throw new AssertionError("unclosed quote in '" + line + "'");
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  /**
   * The first JSON array of strings in {@code file} on a line that contains {@code marker},
   * starting at the array's {@code [} that follows the marker: a compose {@code test:} list, an
   * exec form written out in prose.
   */
  static List<String> jsonArrayAfter(Path file, String marker) throws IOException {
    for (String line : Files.readAllLines(file)) {
      int at = line.indexOf(marker);
      if (at >= 0) {
        int open = line.indexOf('[', at);
        int close = line.indexOf(']', open);
        JsonArray array = (JsonArray) JsonCodec.parse(line.substring(open, close + 1));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
          out.add(((JsonString) array.get(i)).value());
        }
        return out;
      }
    }
    throw new AssertionError(file + " has no line with '" + marker + "'");
  }

  /** The value of {@code key} in a systemd unit (its first {@code key=} line). */
  static String unitValue(String unit, String key) {
    return unit.lines()
        .filter(l -> l.startsWith(key + "="))
        .map(l -> l.substring(key.length() + 1))
        .findFirst()
        .orElseThrow(() -> new AssertionError("the unit has no " + key + "="));
  }

  /**
   * The size {@code file} states in megabytes right after {@code text}, as in "{@code …tar.gz` (50
   * MB)}": the number in the first "(N MB" that follows it.
   */
  static long statedMegabytes(Path file, String text) throws IOException {
    String doc = Files.readString(file);
    int at = doc.indexOf(text);
    if (at < 0) {
      throw new AssertionError(file + " does not say " + text);
    }
    Matcher m = Pattern.compile("\\((\\d+) MB").matcher(doc.substring(at));
    if (!m.find()) {
      throw new AssertionError(file + " states no size (N MB) after " + text);
    }
    return Long.parseLong(m.group(1));
  }

  /**
   * Checks that what {@code file} states of a built file's size, after {@code text}, is its size to
   * within a tenth (so the doc is updated when the build changes it, not for every byte).
   */
  static void assertStatedSize(Path file, String text, long bytes) throws IOException {
    long stated = statedMegabytes(file, text);
    double actual = bytes / 1_000_000.0;
    if (Math.abs(actual - stated) > actual / 10) {
      throw new AssertionError(file + " says " + stated + " MB after " + text + "; the build made "
          + Math.round(actual) + " MB (" + bytes + " bytes): update the doc");
    }
  }
}
