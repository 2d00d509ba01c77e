package io.promptd.store;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bounds what a client's self-reported {@code clientInfo} adds to {@code prompt_usage}, as a
 * metrics system bounds a label's values: a name is cut to {@link #MAX_NAME} printable ASCII
 * characters, a version to its major.minor (or to {@link #MAX_VERSION} printable characters when it
 * has none), and a prompt counts at most {@link #MAX_CLIENTS} distinct clients (name and version) a
 * day, each further one as {@link #OTHER}. Else any caller could add a row a request by naming
 * itself anew.
 */
final class UsageClients {
  /** The client named for the uses of clients beyond the bound. */
  static final String OTHER = "other";

  /** Distinct clients kept per prompt per day (UTC). */
  static final int MAX_CLIENTS = 20;

  static final int MAX_NAME = 64;
  static final int MAX_VERSION = 16;

  private static final Pattern NUMBERED = Pattern.compile("v?(\\d{1,6})(?:\\.(\\d{1,6}))?.*");

  private long day = Long.MIN_VALUE;
  private final Map<String, Set<String>> seen = new HashMap<>();

  /**
   * {@code name} as it is kept: printable ASCII (anything else as {@code _}), stripped, at most
   * {@link #MAX_NAME}.
   */
  static String name(String name) {
    return printable(name, MAX_NAME);
  }

  /**
   * {@code version} as it is kept: {@code 2.1} for {@code 2.1.0-beta+7}, else printable and short.
   */
  static String version(String version) {
    String v = printable(version, 64);
    Matcher m = NUMBERED.matcher(v);
    if (m.matches()) {
      return m.group(2) == null ? m.group(1) : m.group(1) + "." + m.group(2);
    }
    return v.length() <= MAX_VERSION ? v : v.substring(0, MAX_VERSION);
  }

  private static String printable(String text, int max) {
    String s = text.strip();
    StringBuilder out = new StringBuilder(Math.min(s.length(), max));
    for (int i = 0; i < s.length() && out.length() < max; i++) {
      char c = s.charAt(i);
      out.append(c >= 0x20 && c < 0x7f ? c : '_');
    }
    return out.toString().stripTrailing();
  }

  /**
   * Whether the uses of {@code prompt} at {@code epochSecond} by the client {@code name}
   * {@code version} are counted under that client: one of the first {@link #MAX_CLIENTS} the prompt
   * had that day.
   */
  synchronized boolean kept(long epochSecond, String prompt, String name, String version) {
    long today = Math.floorDiv(epochSecond, 86_400);
    if (today > day) {
      day = today;
      seen.clear();
    }
    Set<String> clients = seen.computeIfAbsent(prompt, p -> new HashSet<>());
    String client = name + '\n' + version;
    return clients.contains(client) || (clients.size() < MAX_CLIENTS && clients.add(client));
  }
}
