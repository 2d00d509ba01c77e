package io.promptd.library;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Scale benchmark, not a test: generates a library of prompt files (100,000 by default) in a
 * temporary folder and reports load time, heap after load, one-file reload latency (save to visible
 * in the catalog) and {@code prompts/list} page latency through a real server.
 *
 * <pre>benchmarks/library-scale.sh [COUNT [DIR]]      (a fresh JVM, as the server runs)
 * ./mvnw -q -pl prompt-library exec:java [-Dexec.args="COUNT DIR"]   (inside Maven's JVM)</pre>
 *
 * <p>Arguments: the number of files (100,000), and a folder to keep the generated library in for
 * the next run (without it, a temporary folder that is deleted afterwards).
 */
public final class LibraryScaleBench {
  private static final int PER_FOLDER = 100;
  private static final int EDITS = 50;

  private LibraryScaleBench() {}

  /** Runs the benchmark; the optional argument is the number of files. */
  public static void main(String[] args) throws Exception {
    if (args.length == 1 && args[0].equals("hello")) {
      return; // a JVM that starts and ends: the baseline of a restart's JVM start
    }
    if (args.length == 4 && args[0].equals("restart")) {
      restart(Path.of(args[1]), Path.of(args[2]), Long.parseLong(args[3]));
      return;
    }
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    // With a folder given, the library is kept there and reused by the next run, so that run
    // measures loading files that are already on disk rather than competing with the writeback of
    // files just generated.
    Path dir = args.length > 1
        ? Path.of(args[1]).resolve("library-" + count)
        : Files.createTempDirectory("promptd-scale-");
    boolean keep = args.length > 1;
    try {
      if (Files.isDirectory(dir.resolve("team0000"))) {
        report("reusing %s", dir);
      } else {
        long t0 = System.nanoTime();
        generate(dir, count);
        report("generated %,d files in %s in %d ms", count, dir, ms(System.nanoTime() - t0));
      }
      report(
          "machine: %d cores, load average %s before loading",
          Runtime.getRuntime().availableProcessors(), loadAverage());
      measure(dir, count);
    } finally {
      if (!keep) {
        deleteTree(dir);
      }
    }
  }

  private static void measure(Path dir, int count) throws Exception {
    // A fresh index folder: this load reads every file, then writes the index the restart below
    // reads.
    Path cache = dir.resolveSibling(dir.getFileName() + "-index");
    if (Files.isDirectory(cache)) {
      deleteTree(cache);
    }
    LibraryOptions options = LibraryOptions.defaults().withCacheDirectory(cache);
    // The baselines, in this JVM, over the same files: what the load's reading and a restart's
    // stat-ing cost at least. A first walk reads the files into the page cache, as the load below
    // finds them (a library kept from an earlier run may have left it): the measured walks are
    // warm.
    walk(dir, true);
    long[] readAll = walk(dir, true);
    long[] statAll = walk(dir, false);
    report(
        "read-all: %d ms wall (every file's bytes, %,d files, %,d bytes, one thread)",
        ms(readAll[0]), readAll[1], readAll[2]);
    report("stat-all: %d ms wall (every file's attributes, %,d files)", ms(statAll[0]), statAll[1]);
    long cpu = cpuNanos();
    long start = System.nanoTime();
    try (Library library = Library.open(LibrarySource.folders(List.of(dir)), options)) {
      long loadNanos = System.nanoTime() - start;
      report(
          "load: %d ms wall, %d ms CPU (all threads, JIT and GC included; the index is written afterwards, in the"
              + " background) for %,d prompts (%d diagnostics)",
          ms(loadNanos),
          ms(cpuNanos() - cpu),
          library.catalog().size(),
          library.diagnostics().size());
      report("ratio load/read-all: %.2f", (double) loadNanos / readAll[0]);
      report("heap after load (after GC): %d MiB", usedHeapMiB());
      long w = System.nanoTime();
      library.watch();
      report("watch: %d ms to register folders", ms(System.nanoTime() - w));
      reloads(dir, library.catalog());
      PromptCatalog small =
          PromptCatalog.of(library.catalog().all().subList(0, Math.min(1000, count)));
      usedHeapMiB();
      for (int round = 0; round < 2; round++) {
        // Interleaved, so JIT warm-up and GC do not favour either; the page should cost the same.
        pages("all prompts", library.catalog());
        pages("first 1,000 only", small);
      }
      warmLoad(dir);
    }
    // The restart (benchmarks/library-scale.sh runs it next) is a new JVM started once this one has
    // exited, as a restarted server's would be: not beside a live JVM still holding a loaded
    // library.
    report("index for the restart: %s", cache);
  }

  /**
   * A restart: load with the index present, then serve the first {@code prompts/list} page.
   *
   * @param launched when the script started this JVM, in nanoseconds since the epoch ({@code date
   *     +%s%N}), taken the way the JVM-start baseline's times are. Not the process's start time
   *     from {@link ProcessHandle}: on Linux that adds the boot time, which the kernel gives in
   *     whole seconds, so it was off by a constant of up to a second on each boot (~540 ms on the
   *     boot where that was noticed).
   */
  private static void restart(Path dir, Path cache, long launched) throws IOException {
    long cpu = cpuNanos();
    long start = System.nanoTime();
    try (Library library = Library.open(
        LibrarySource.folders(List.of(dir)), LibraryOptions.defaults().withCacheDirectory(cache))) {
      long loaded = System.nanoTime();
      try (McpHarness mcp = new McpHarness(library.catalog())) {
        String page = mcp.call("prompts/list", "{}");
        long now = System.currentTimeMillis();
        report(
            "restart: %d ms from launching the JVM to the first prompts/list page (%d bytes); load %d ms wall, %d ms CPU"
                + " for %,d prompts, %,d of them from the index",
            now - launched / 1_000_000,
            page.length(),
            ms(loaded - start),
            ms(cpuNanos() - cpu),
            library.catalog().size(),
            library.restoredFromIndex());
      }
    }
  }

  private static void generate(Path dir, int count) throws IOException {
    for (int i = 0; i < count; i++) {
      Path folder = dir.resolve(String.format(Locale.ROOT, "team%04d", i / PER_FOLDER));
      if (i % PER_FOLDER == 0) {
        Files.createDirectories(folder);
      }
      Files.writeString(
          folder.resolve(String.format(Locale.ROOT, "prompt%06d.prompt.md", i)), content(i, "v0"));
    }
  }

  private static String content(int i, String version) {
    return """
        ---
        description: Generated prompt %d for the scale benchmark
        arguments:
          - name: code
            required: true
          - name: level
            enum: [low, medium, high]
            default: medium
        ---
        ::: system
        You are reviewer number %d (%s).
        ::: user
        Review at {{level}} depth:
        {{code}}
        """.formatted(i, i, version);
  }

  /**
   * A second full load in the same JVM, JIT-compiled by now: what a rescan costs in a running
   * server.
   */
  private static void warmLoad(Path dir) throws IOException {
    long cpu = cpuNanos();
    long start = System.nanoTime();
    try (Library again = Library.open(
        LibrarySource.folders(List.of(dir)), LibraryOptions.defaults().withCacheDirectory(null))) {
      report(
          "load again (warm JVM): %d ms wall, %d ms CPU for %,d prompts",
          ms(System.nanoTime() - start), ms(cpuNanos() - cpu), again.catalog().size());
    }
  }

  /** Edits one file at a time and waits until the catalog serves the new version. */
  private static void reloads(Path dir, PromptCatalog catalog) throws Exception {
    List<Long> latencies = new ArrayList<>();
    // Edit -1 is the warm-up (the watcher's first event, the reload path's first JIT): waited for,
    // not counted.
    for (int e = -1; e < EDITS; e++) {
      int i = ((e + 100) * 7919) % 100;
      String name = String.format(Locale.ROOT, "team%04d-prompt%06d", 0, i);
      Path file =
          dir.resolve("team0000").resolve(String.format(Locale.ROOT, "prompt%06d.prompt.md", i));
      String version =
          "v" + (e + 1) + "-" + System.nanoTime(); // never what an earlier run left there
      var before = catalog.get(name).orElseThrow();
      long start = System.nanoTime();
      Files.writeString(file, content(i, version), StandardCharsets.UTF_8);
      int edit = e;
      Poll.until(
          Duration.ofSeconds(10),
          Duration.ofNanos(200_000),
          () -> "edit " + edit + " seen in the catalog",
          () -> catalog.get(name).orElseThrow() != before);
      if (e >= 0) {
        latencies.add(System.nanoTime() - start);
      }
      // The next edit needs no pause: the catalog showing this one means its debounce is over.
    }
    Collections.sort(latencies);
    report(
        "reload (save -> visible in catalog, %d edits): p50 %.1f ms, p95 %.1f ms, max %.1f ms",
        EDITS,
        latencies.get(EDITS / 2) / 1e6,
        latencies.get(EDITS * 95 / 100) / 1e6,
        latencies.getLast() / 1e6);
  }

  /** prompts/list through a real server session: the first page and pages deep into the library. */
  private static void pages(String label, PromptCatalog catalog) {
    try (McpHarness mcp = new McpHarness(catalog)) {
      String first = mcp.call("prompts/list", "{}");
      String cursor = ((JsonObject) ((JsonObject) JsonCodec.parse(first)).get("result"))
          .string("nextCursor")
          .orElseThrow();
      for (int i = 0; i < 200; i++) {
        mcp.call("prompts/list", "{\"cursor\":\"" + cursor + "\"}");
      }
      int rounds = 1000;
      long start = System.nanoTime();
      for (int i = 0; i < rounds; i++) {
        mcp.call("prompts/list", "{\"cursor\":\"" + cursor + "\"}");
      }
      String page = mcp.call("prompts/list", "{\"cursor\":\"" + cursor + "\"}");
      report(
          "page (%s, %,d prompts): %.3f ms per prompts/list page (%d bytes, mean of %d)",
          label, catalog.size(), (System.nanoTime() - start) / 1e6 / rounds, page.length(), rounds);
    }
  }

  /**
   * Walks {@code dir} as the library's listing does (one thread, depth first), reading every
   * regular file's bytes or only its attributes; returns the wall time in nanoseconds, the files
   * and the bytes.
   */
  private static long[] walk(Path dir, boolean read) throws IOException {
    long[] out = new long[3];
    long start = System.nanoTime();
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        if (attrs.isRegularFile()) {
          out[1]++;
          out[2] += read ? Files.readAllBytes(file).length : attrs.size();
        }
        return FileVisitResult.CONTINUE;
      }
    });
    out[0] = System.nanoTime() - start;
    return out;
  }

  private static long usedHeapMiB() throws InterruptedException {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc(); // a full collection, done when it returns (G1, no ExplicitGCInvokesConcurrent)
    }
    return (rt.totalMemory() - rt.freeMemory()) >> 20;
  }

  private static long cpuNanos() {
    return ProcessHandle.current()
        .info()
        .totalCpuDuration()
        .map(Duration::toNanos)
        .orElse(0L);
  }

  /** Other work on the machine skews wall times; the report says how busy it was. */
  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  private static long ms(long nanos) {
    return nanos / 1_000_000;
  }

  @SuppressWarnings("SystemOut") // a benchmark's report is its output
  private static void report(String format, Object... args) {
    System.out.println(String.format(Locale.ROOT, format, args));
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
