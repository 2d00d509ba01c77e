package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.Poll;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs' shell blocks: every {@code sh} block in README.md, CONTRIBUTING.md and docs/ says, in
 * an HTML comment on the line above it, how it is tested, and this test holds it to that:
 *
 * <ul>
 *   <li>{@code <!-- doc-test: run -->}: run here as written, with {@code sh -e} in the checkout and
 *       a fresh home; it must succeed, and each of its whole-line comments ({@code # …}, what the
 *       doc shows as output) must be in what it printed;
 *   <li>{@code <!-- doc-test: run until "TEXT" -->}: a server, started as written, must print TEXT
 *       (and its comment lines), then is stopped;
 *   <li>{@code <!-- doc-test: run beside "COMMAND" -->}: run as {@code run} is, while the server
 *       COMMAND (started the same way) serves beside it;
 *   <li>{@code <!-- doc-test: ClassName, … -->}: run by those tests, whose source must name the doc
 *       and the heading the block stands under (as a test that reads the block from the doc does);
 *   <li>{@code <!-- doc-test: not run: REASON -->}: cannot run here, and why.
 * </ul>
 */
class ShellBlocksDocTest {
  private static final Pattern MARKER = Pattern.compile("^<!-- doc-test: (.+) -->$");
  private static final Pattern UNTIL = Pattern.compile("^run until \"(.+)\"$");
  private static final Pattern BESIDE = Pattern.compile("^run beside \"(.+)\"$");

  record Block(Path doc, int line, String heading, @Nullable String marker, String code) {
    String where() {
      return Peers.ROOT.relativize(doc) + ":" + line + " (" + heading + ")";
    }

    /** The whole-line comments: what the doc shows the commands print. */
    List<String> shown() {
      return code.lines()
          .filter(l -> l.startsWith("# "))
          .map(l -> l.substring(2).strip())
          .toList();
    }
  }

  @Test
  void everyShellBlockIsRunOrSaysWhyNot(@TempDir Path tmp) throws Exception {
    List<Block> blocks = blocks();
    List<String> problems = new ArrayList<>();
    Map<Path, Path> homes = new HashMap<>();
    int n = 0;
    for (Block b : blocks) {
      String marker = b.marker();
      if (marker == null) {
        problems.add(b.where() + ": no <!-- doc-test: … --> line above the block");
        continue;
      }
      // One home per doc: a doc's blocks run in order, each after the ones above it.
      if (!homes.containsKey(b.doc())) {
        homes.put(b.doc(), Files.createDirectories(tmp.resolve("home" + n++)));
      }
      Path home = homes.get(b.doc());
      Matcher until = UNTIL.matcher(marker);
      Matcher beside = BESIDE.matcher(marker);
      String problem;
      if (marker.equals("run")) {
        problem = run(b, home);
      } else if (beside.matches()) {
        Block server = new Block(b.doc(), b.line(), b.heading(), null, beside.group(1));
        Process p = builder(server, home)
            .redirectOutput(home.resolve("beside.log").toFile())
            .start();
        try {
          p.getOutputStream().close();
          Poll.until(
              Duration.ofSeconds(120),
              Duration.ofMillis(100),
              () -> "the server beside the block serves: " + server.code(),
              () -> Files.readString(home.resolve("beside.log"), UTF_8).contains("promptd: serving")
                  || !p.isAlive());
          problem = p.isAlive()
              ? run(b, home)
              : "the server beside it ended: "
                  + Files.readString(home.resolve("beside.log"), UTF_8);
        } finally {
          stop(p);
        }
      } else if (until.matches()) {
        problem = serve(b, home, until.group(1));
      } else if (marker.startsWith("not run: ")) {
        problem = marker.length() > "not run: ".length() + 10 ? null : "a reason is needed";
      } else if (marker.equals("read by a test")) {
        problem = readByATest(b)
            ? null
            : "no test's source names " + b.doc().getFileName() + " and the heading \""
                + b.heading() + "\"";
      } else {
        problem = "'" + marker + "' is not run, run until \"…\", run beside \"…\", read by a test,"
            + " or not run: …";
      }
      if (problem != null) {
        problems.add(b.where() + ": " + problem);
      }
    }
    assertThat(problems).as("shell blocks in the docs").isEmpty();
  }

  /** Runs a block that ends by itself; null when it did what the doc says. */
  private static @Nullable String run(Block b, Path home) throws Exception {
    Process p = start(b, home);
    String out = new String(p.getInputStream().readAllBytes(), UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      stop(p);
      return "did not end within 120 s:\n" + out;
    }
    if (p.exitValue() != 0) {
      return "exited with " + p.exitValue() + ":\n" + out;
    }
    return missing(b, out);
  }

  /** Starts a server block, waits for {@code ready} in its output, stops it. */
  private static @Nullable String serve(Block b, Path home, String ready) throws Exception {
    Path log = home.resolve("server.log");
    ProcessBuilder pb = builder(b, home).redirectOutput(log.toFile());
    Process p = pb.start();
    try {
      p.getOutputStream().close(); // a stdio server before it ends at once, as in a script
      Poll.until(
          Duration.ofSeconds(120),
          Duration.ofMillis(100),
          () -> "the server prints \"" + ready + "\"",
          () -> Files.readString(log, UTF_8).contains(ready) || !p.isAlive());
      String out = Files.readString(log, UTF_8);
      if (!out.contains(ready)) {
        return "ended (" + p.exitValue() + ") before printing \"" + ready + "\":\n" + out;
      }
      return missing(b, out);
    } finally {
      stop(p);
    }
  }

  /** Whether some test's source names this block's doc and the heading it stands under. */
  private static boolean readByATest(Block b) throws IOException {
    String docName = b.doc().getFileName().toString();
    for (String source : testSources()) {
      if (source.contains(docName) && source.contains(b.heading())) {
        return true;
      }
    }
    return false;
  }

  private static @Nullable String missing(Block b, String out) {
    for (String line : b.shown()) {
      if (!out.contains(line)) {
        return "the doc shows \"" + line + "\", the run printed:\n" + out;
      }
    }
    return null;
  }

  private static ProcessBuilder builder(Block b, Path home) {
    ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-ec", b.code())
        .directory(Peers.ROOT.toFile())
        .redirectErrorStream(true);
    pb.environment().put("HOME", home.toString());
    // promptd on PATH is this checkout's launcher, as for a user who linked it there
    pb.environment().put("PATH", Peers.ROOT + ":" + System.getenv("PATH"));
    pb.environment().remove("PROMPTD_TOKEN");
    pb.environment().remove("PROMPTD_STORE");
    return pb;
  }

  private static Process start(Block b, Path home) throws IOException {
    Process p = builder(b, home).start();
    p.getOutputStream().close(); // a block reads nothing from a terminal
    return p;
  }

  private static void stop(Process p) throws InterruptedException {
    p.descendants().forEach(ProcessHandle::destroy);
    p.destroy();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
  }

  private static @Nullable List<String> sources;

  /** The text of every test source of every module, read once. */
  private static List<String> testSources() throws IOException {
    if (sources == null) {
      List<String> all = new ArrayList<>();
      try (Stream<Path> modules = Files.list(Peers.ROOT)) {
        for (Path module : modules.toList()) {
          Path tests = module.resolve("src/test/java");
          if (Files.isDirectory(tests)) {
            try (Stream<Path> files = Files.walk(tests)) {
              for (Path f : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                all.add(Files.readString(f, UTF_8));
              }
            }
          }
        }
      }
      sources = all;
    }
    return sources;
  }

  /** Every sh block of README.md, CONTRIBUTING.md and docs/, with its marker and heading. */
  static List<Block> blocks() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(
        Peers.ROOT.resolve("README.md"),
        Peers.ROOT.resolve("README.zh-CN.md"),
        Peers.ROOT.resolve("README.ja.md"),
        Peers.ROOT.resolve("CONTRIBUTING.md")));
    try (Stream<Path> files = Files.walk(Peers.ROOT.resolve("docs"))) {
      files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    List<Block> blocks = new ArrayList<>();
    for (Path doc : docs) {
      List<String> lines = Files.readAllLines(doc, UTF_8);
      String heading = "";
      boolean fenced = false;
      for (int i = 0; i < lines.size(); i++) {
        String l = lines.get(i);
        if (!fenced && l.startsWith("#")) {
          heading = l.replaceFirst("^#+ ", "");
        } else if (l.startsWith("```")) {
          if (!fenced && l.equals("```sh")) {
            int start = i + 1;
            StringBuilder code = new StringBuilder();
            for (i = start; i < lines.size() && !lines.get(i).startsWith("```"); i++) {
              code.append(lines.get(i)).append('\n');
            }
            Matcher m = start >= 2 ? MARKER.matcher(lines.get(start - 2)) : null;
            blocks.add(new Block(
                doc,
                start,
                heading,
                m != null && m.matches() ? m.group(1) : null,
                code.toString()));
          } else {
            fenced = !fenced;
          }
        }
      }
    }
    return blocks;
  }
}
