package io.promptd.store.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.promptd.store.StoreUrl;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for tests, started once per JVM from the Debian binaries
 * ({@code /usr/lib/postgresql/N/bin}) in a temporary folder, stopped by a shutdown hook. PostgreSQL
 * refuses to run as root, so as root the binaries run as the user {@code postgres}
 * ({@code runuser}). Without binaries the tests are skipped, except under {@code CI=true}, where
 * that is a failure.
 */
public final class TestPostgres {
  /** The password every URL carries: tests check that it shows up nowhere. */
  public static final String PASSWORD = "s3cret-pw";

  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static TestPostgres server;

  private final Path bin;
  private final Path dir;
  private final int port;
  private final boolean root;

  private TestPostgres(Path bin, Path dir, int port, boolean root) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
    this.root = root;
  }

  /** The server, started on first use. */
  public static synchronized TestPostgres get() throws Exception {
    if (server == null) {
      Path bin = findBinaries();
      if (bin == null) {
        if ("true".equals(System.getenv("CI"))) {
          throw new IllegalStateException(
              "no PostgreSQL binaries under /usr/lib/postgresql/*/bin; install the"
                  + " Debian package postgresql");
        }
        assumeTrue(
            false, "no PostgreSQL binaries under /usr/lib/postgresql/*/bin: store tests skipped");
      }
      boolean root = "root".equals(System.getProperty("user.name"));
      Path dir = Files.createTempDirectory("promptd-pg");
      int port;
      try (ServerSocket s = new ServerSocket(0)) {
        port = s.getLocalPort();
      }
      TestPostgres pg = new TestPostgres(bin, dir, port, root);
      if (root) {
        run(List.of("chown", "-R", "postgres:postgres", dir.toString()));
        run(List.of("chmod", "755", dir.toString()));
      }
      pg.pg(
          "initdb",
          "-D",
          dir.resolve("data").toString(),
          "-U",
          "postgres",
          "-A",
          "trust",
          "--no-sync",
          "-E",
          "UTF8");
      pg.start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          pg.stop();
          try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
          }
        } catch (Exception e) {
          // best effort
        }
      }));
      server = pg;
    }
    return server;
  }

  /** A new, empty database with its own name, as a store URL with a (meaningless) password. */
  public StoreUrl newDatabase() throws Exception {
    return StoreUrl.parse(newDatabaseUrl());
  }

  /** A new, empty database, as the text of its store URL. */
  public String newDatabaseUrl() throws Exception {
    String name = "promptd_test_" + DATABASES.incrementAndGet();
    try (Connection c = DriverManager.getConnection(
            "jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "");
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    }
    return url(name);
  }

  /**
   * The URL of database {@code name}, with the password {@link #PASSWORD} (trust auth ignores it).
   */
  public String url(String name) {
    return "postgresql://postgres:" + PASSWORD + "@127.0.0.1:" + port + "/" + name;
  }

  /** The port the server listens on, at 127.0.0.1. */
  public int port() {
    return port;
  }

  /** The folder of the server's binaries, {@code psql} among them. */
  public Path binaries() {
    return bin;
  }

  /** Starts the server (again), waiting until it accepts connections. */
  public void start() throws Exception {
    pg(
        "pg_ctl",
        "-D",
        dir.resolve("data").toString(),
        "-w",
        "-t",
        "30",
        "-l",
        dir.resolve("log").toString(),
        "-o",
        "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off",
        "start");
  }

  /** Stops the server at once (fast shutdown: open connections are cut). */
  public void stop() throws Exception {
    pg("pg_ctl", "-D", dir.resolve("data").toString(), "-w", "-t", "30", "-m", "fast", "stop");
  }

  private void pg(String tool, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    if (root) {
      command.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    command.add(bin.resolve(tool).toString());
    command.addAll(List.of(args));
    run(command);
  }

  private static void run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getOutputStream().close();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("timed out: " + command);
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new IOException(command + " exited with " + p.exitValue() + ":\n" + out);
    }
  }

  private static Path findBinaries() throws IOException {
    Path base = Path.of("/usr/lib/postgresql");
    if (!Files.isDirectory(base)) {
      return null;
    }
    try (Stream<Path> versions = Files.list(base)) {
      return versions
          .map(v -> v.resolve("bin"))
          .filter(b -> Files.isExecutable(b.resolve("postgres")))
          .max(Comparator.comparing(
              b -> Integer.parseInt(b.getParent().getFileName().toString().replaceAll("\\D", "0"))))
          .orElse(null);
    }
  }
}
