package io.promptd.interop;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What the real-client cells share: configuration files written as JSON, and the end of what a
 * terminal client left running (it may outlive its tmux server, and so may the stdio promptd it
 * started).
 */
final class TerminalClients {
  private TerminalClients() {}

  /** JSON for a client's configuration: maps, lists, strings, numbers, booleans and null. */
  static String json(Object value) {
    StringBuilder s = new StringBuilder();
    write(s, value);
    return s.toString();
  }

  /**
   * Ends the processes (but this one) whose command line names {@code folder} or whose working
   * directory is inside it — a test's own temp folder — and waits for them: up to 10 s in all, then
   * by force.
   */
  static void endProcessesIn(String folder) throws InterruptedException {
    List<ProcessHandle> left = ProcessHandle.allProcesses()
        .filter(p -> p.pid() != ProcessHandle.current().pid())
        .filter(p ->
            p.info().commandLine().map(c -> c.contains(folder)).orElse(false) || cwdIn(p, folder))
        .toList();
    left.forEach(ProcessHandle::destroy);
    awaitExit(left);
  }

  /** The processes (but this one) whose command line contains {@code marker}. */
  static List<ProcessHandle> processesMentioning(String marker) {
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != ProcessHandle.current().pid())
        .filter(p -> p.info().commandLine().map(c -> c.contains(marker)).orElse(false))
        .toList();
  }

  /**
   * Waits up to 10 s in all for {@code processes} to exit; ends the ones still running by force.
   */
  static void awaitExit(List<ProcessHandle> processes) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    for (ProcessHandle p : processes) {
      try {
        p.onExit().get(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException e) {
        p.destroyForcibly();
      }
    }
  }

  private static boolean cwdIn(ProcessHandle p, String folder) {
    try {
      return Files.readSymbolicLink(Path.of("/proc", String.valueOf(p.pid()), "cwd"))
          .toString()
          .startsWith(folder);
    } catch (Exception | Error notReadable) {
      return false;
    }
  }

  private static void write(StringBuilder s, Object value) {
    switch (value) {
      case null -> s.append("null");
      case Json json -> s.append(JsonCodec.write(json));
      case Map<?, ?> map -> {
        s.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : map.entrySet()) {
          s.append(first ? "" : ",");
          first = false;
          write(s, String.valueOf(e.getKey()));
          s.append(':');
          write(s, e.getValue());
        }
        s.append('}');
      }
      case List<?> list -> {
        s.append('[');
        for (int i = 0; i < list.size(); i++) {
          s.append(i == 0 ? "" : ",");
          write(s, list.get(i));
        }
        s.append(']');
      }
      case Number n -> s.append(n);
      case Boolean b -> s.append(b);
      default -> {
        s.append('"');
        for (char c : value.toString().toCharArray()) {
          switch (c) {
            case '"' -> s.append("\\\"");
            case '\\' -> s.append("\\\\");
            case '\n' -> s.append("\\n");
            case '\t' -> s.append("\\t");
            default -> {
              if (c < 0x20) {
                s.append(String.format("\\u%04x", (int) c));
              } else {
                s.append(c);
              }
            }
          }
        }
        s.append('"');
      }
    }
  }
}
