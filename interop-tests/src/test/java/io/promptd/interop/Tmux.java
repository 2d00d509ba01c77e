package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.testing.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.assertj.core.api.Assumptions;

/**
 * A real terminal program in a tmux pseudo-terminal of its own (a private tmux server per instance,
 * so tests never see each other's or the user's sessions): keys are typed into it and its screen is
 * read back as text, as a person would. {@link #close()} ends the program and its tmux server.
 */
final class Tmux implements AutoCloseable {
  private static final Path TMUX = Path.of("/usr/bin/tmux");

  private final String socket;
  private final Path log;
  private String last = "";

  private Tmux(String socket, Path log) {
    this.socket = socket;
    this.log = log;
  }

  /**
   * Skips the calling test when tmux is not installed, except in CI, where its absence is a
   * failure.
   */
  static void require() {
    boolean installed = Files.isExecutable(TMUX);
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "tmux is missing in CI: bin/test installs it (apt-get install tmux)");
    }
    Assumptions.assumeThat(installed)
        .as("tmux installed (apt-get install tmux)")
        .isTrue();
  }

  /**
   * Starts {@code command} in a new {@code cols}×{@code rows} terminal, in {@code cwd}, with
   * exactly {@code env} as its environment (plus {@code TERM}). The screen is appended to
   * {@code log} whenever it is read, for the report.
   */
  static Tmux start(
      String name,
      Path cwd,
      Map<String, String> env,
      List<String> command,
      int cols,
      int rows,
      Path log)
      throws Exception {
    String socket =
        "promptd-lane-" + name + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
    Tmux t = new Tmux(socket, log);
    List<String> args = new ArrayList<>(List.of(
        "new-session",
        "-d",
        "-s",
        "lane",
        "-x",
        String.valueOf(cols),
        "-y",
        String.valueOf(rows),
        "-c",
        cwd.toString(),
        "--",
        "env",
        "-i"));
    env.forEach((k, v) -> args.add(k + "=" + v));
    if (!env.containsKey("TERM")) {
      args.add("TERM=xterm-256color");
    }
    args.addAll(command);
    t.tmux(args);
    t.tmux(List.of("set-option", "-t", "lane", "remain-on-exit", "on"));
    return t;
  }

  /** Types {@code text} literally (no key names), as a paste would not: one key at a time. */
  void type(String text) throws Exception {
    tmux(List.of("send-keys", "-t", "lane", "-l", text));
  }

  /**
   * Presses keys by tmux name: {@code Enter}, {@code Escape}, {@code Down}, {@code Tab},
   * {@code C-c}, …
   */
  void keys(String... keys) throws Exception {
    List<String> args = new ArrayList<>(List.of("send-keys", "-t", "lane"));
    args.addAll(List.of(keys));
    tmux(args);
  }

  /** The visible screen as text. */
  String screen() throws Exception {
    String s = tmux(List.of("capture-pane", "-p", "-t", "lane"));
    if (!s.equals(last)) {
      last = s;
      Files.writeString(
          log,
          "----- " + LocalTime.now() + "\n" + s + "\n",
          UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    }
    return s;
  }

  /**
   * Returns the screen once {@code check} holds for it.
   *
   * @throws AssertionError saying {@code what}, with the last screen, when it has not within
   *     {@code within}
   */
  String await(String what, Duration within, Predicate<String> check) throws Exception {
    AtomicReference<String> seen = new AtomicReference<>("");
    try {
      Poll.until(
          within, Duration.ofMillis(200), () -> what + "; the screen was:\n" + seen.get(), () -> {
            seen.set(screen());
            return check.test(seen.get());
          });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n(all screens: " + log + ")", e);
    }
    return seen.get();
  }

  /**
   * Returns the screen once it has stopped changing (two reads 200 ms apart alike): a menu or
   * suggestion list that a key press opened has been drawn.
   */
  String awaitStable(Duration within) throws Exception {
    String[] last = {screen()};
    Poll.until(within, Duration.ofMillis(200), () -> "the screen settles", () -> {
      String now = screen();
      boolean same = now.equals(last[0]);
      last[0] = now;
      return same;
    });
    return last[0];
  }

  /**
   * Presses {@code key} and returns the screen once the key has shown an effect and the screen has
   * settled; a key with no visible effect (↓ on the last line) returns after {@code within}.
   */
  String press(String key, Duration within) throws Exception {
    String before = screen();
    keys(key);
    try {
      await(key + " changes the screen", within, s -> !s.equals(before));
    } catch (AssertionError noEffect) {
      return before;
    }
    return awaitStable(within);
  }

  /** Returns the screen once it shows {@code text}. */
  String awaitText(String text, Duration within) throws Exception {
    return await("the screen shows \"" + text + "\"", within, s -> s.contains(text));
  }

  /** Whether the program is still running. */
  boolean alive() throws Exception {
    return tmux(List.of("display-message", "-p", "-t", "lane", "#{pane_dead}"))
        .trim()
        .equals("0");
  }

  @Override
  public void close() throws Exception {
    try {
      screen();
    } catch (Exception | AssertionError ignored) {
      // the session may already be gone
    }
    new ProcessBuilder(TMUX.toString(), "-L", socket, "kill-server")
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start()
        .waitFor(10, TimeUnit.SECONDS);
  }

  private String tmux(List<String> args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of(TMUX.toString(), "-L", socket, "-f", "/dev/null"));
    command.addAll(args);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(10, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("tmux did not answer: " + args);
    }
    if (p.exitValue() != 0) {
      throw new IOException(
          "tmux " + args.getFirst() + " failed: " + new String(out, UTF_8).trim());
    }
    return new String(out, UTF_8);
  }
}
