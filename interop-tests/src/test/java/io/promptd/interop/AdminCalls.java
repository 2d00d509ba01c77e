package io.promptd.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The admin REST calls docs/oauth.md lists as a {@code text} block, read the way a person reads
 * them: one call a line ({@code METHOD PATH BODY}), its body going on over the indented lines below
 * it, and a line starting with {@code →} naming what the call gives back for the calls after it to
 * use (its placeholders, such as {@code OPS_SCOPE_ID} or {@code ROLE}).
 */
final class AdminCalls {
  private static final Pattern CALL = Pattern.compile("^(GET|POST|PUT|DELETE) +(\\S+) *(.*)$");
  private static final Pattern NAMES_ONE = Pattern.compile("^→ ([A-Z][A-Z_]*)(?: \\(.*\\))?$");
  private static final Pattern NAMES_FIELDS =
      Pattern.compile("^→ ([A-Z][A-Z_, and]*): the (.+) of the entry with (.+)$");
  private static final Pattern QUOTED = Pattern.compile("\"([^\"]+)\"");
  private static final Pattern PAIR = Pattern.compile("\"([^\"]+)\": \"([^\"]*)\"");

  private AdminCalls() {}

  /**
   * What a call gives back under names: the created thing's id (the last segment of a POST's
   * {@code Location}), the whole answer ({@code fields} empty), or fields of the entry of a listed
   * array whose members match {@code where}.
   */
  record Result(List<String> names, List<String> fields, List<List<String>> where) {
    Result {
      names = List.copyOf(names);
      fields = List.copyOf(fields);
      where = where.stream().map(List::copyOf).toList();
    }
  }

  /** One call as the doc shows it; {@code body} is null for a call without one. */
  record Call(
      String method,
      String path,
      @Nullable String body,
      @Nullable Result result) {}

  /** The calls of {@code block}, in order. */
  static List<Call> read(String block) {
    List<Call> calls = new ArrayList<>();
    @Nullable String method = null;
    String path = "";
    StringBuilder body = new StringBuilder();
    @Nullable Result result = null;
    for (String line : block.lines().toList()) {
      if (line.isBlank()) {
        continue;
      }
      if (!Character.isWhitespace(line.charAt(0))) {
        if (method != null) {
          calls.add(call(method, path, body, result));
        }
        Matcher m = CALL.matcher(line);
        if (!m.matches()) {
          throw new AssertionError("not METHOD PATH [BODY]: " + line);
        }
        method = m.group(1);
        path = m.group(2);
        body.setLength(0);
        result = null;
        line = m.group(3);
        if (line.isEmpty()) {
          continue;
        }
      } else if (method == null) {
        throw new AssertionError("an indented line before the first call: " + line);
      }
      String part = line.strip();
      if (part.startsWith("→")) {
        if (result != null) {
          throw new AssertionError(method + " " + path + " names its result twice: " + part);
        }
        result = result(part);
      } else if (result != null) {
        throw new AssertionError(method + " " + path + ": its body goes on after → … : " + part);
      } else {
        body.append(body.isEmpty() ? "" : "\n").append(part);
      }
    }
    if (method != null) {
      calls.add(call(method, path, body, result));
    }
    return calls;
  }

  private static Call call(String method, String path, CharSequence body, @Nullable Result result) {
    return new Call(method, path, body.isEmpty() ? null : body.toString(), result);
  }

  private static Result result(String text) {
    Matcher one = NAMES_ONE.matcher(text);
    if (one.matches()) {
      return new Result(List.of(one.group(1)), List.of(), List.of());
    }
    Matcher some = NAMES_FIELDS.matcher(text);
    if (!some.matches()) {
      throw new AssertionError("neither '→ NAME (…)' nor '→ NAME, NAME: the \"field\" and"
          + " \"field\" of the entry with \"key\": \"value\" and …': " + text);
    }
    List<String> names = List.of(some.group(1).split(",\\s*|\\s+and\\s+"));
    List<String> fields = new ArrayList<>();
    Matcher q = QUOTED.matcher(some.group(2));
    while (q.find()) {
      fields.add(q.group(1));
    }
    List<List<String>> where = new ArrayList<>();
    Matcher p = PAIR.matcher(some.group(3));
    while (p.find()) {
      where.add(List.of(p.group(1), p.group(2)));
    }
    if (names.size() != fields.size() || where.isEmpty()) {
      throw new AssertionError("names " + names + " for fields " + fields + ": " + text);
    }
    return new Result(names, fields, where);
  }
}
