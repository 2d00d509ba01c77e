package io.promptd.interop;

import io.promptd.interop.Processes.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The release archive and the container image, built once per test JVM by {@code bin/image
 * --no-build} (which runs {@code bin/release}) from the jars this build made, in
 * {@code interop-tests/target/distribution}; and a way to run the commands around them.
 * {@code bin/release} also writes the npm packages there, in {@code npm/}
 * ({@link NpmPackagesTest}).
 */
final class Distribution {
  /**
   * The archive ({@code promptd-VERSION-linux-ARCH.tar.gz}) and the image
   * ({@code …-image-ARCH.tar}).
   */
  record Built(Path archive, Path image) {}

  /** What a command did. */
  private static @Nullable Built built;

  private Distribution() {}

  /** The archive and the image, built by the first caller. */
  static synchronized Built built() throws Exception {
    Built b = built;
    if (b != null) {
      return b;
    }
    Path out = Peers.ROOT.resolve("interop-tests/target/distribution");
    if (Files.exists(out)) {
      try (Stream<Path> old = Files.walk(out)) {
        for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
    Files.createDirectories(out);
    Result made = run(
        List.of(Peers.ROOT.resolve("bin/image").toString(), "--no-build", out.toString()),
        Map.of("JAVA_HOME", System.getProperty("java.home")),
        Peers.ROOT,
        Duration.ofMinutes(12)); // the archives, the npm packages (two more trainings), the image
    if (made.status() != 0) {
      throw new AssertionError("bin/image failed: " + made.err());
    }
    Path archive;
    try (Stream<Path> files = Files.list(out)) {
      archive = files
          .filter(f -> f.getFileName().toString().matches(".*-linux-[^-]+\\.tar\\.gz"))
          .findFirst()
          .orElseThrow();
    }
    b = new Built(archive, Path.of(made.out().strip()));
    built = b;
    return b;
  }

  /**
   * Runs {@code command} in {@code in} with stdin empty and waits for it; {@code env} is added to
   * this process's environment, or replaces it when it names PATH.
   */
  static Result run(List<String> command, Map<String, String> env, Path in, Duration limit)
      throws IOException, InterruptedException {
    Map<String, String> all = env;
    if (!env.containsKey("PATH")) {
      all = new HashMap<>(System.getenv());
      all.putAll(env);
    }
    return Processes.run(command, all, in, limit);
  }

  /** {@code head} followed by {@code tail}. */
  static List<String> concat(List<String> head, String... tail) {
    List<String> all = new ArrayList<>(head);
    all.addAll(List.of(tail));
    return all;
  }
}
