package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.testing.Poll;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.Assumptions;

/**
 * A real npm registry on loopback: Verdaccio 6.8.0 (pinned in {@code interop/tools}) on a free port
 * of 127.0.0.1, its storage and user file in a folder of the caller's, <b>no uplinks</b> (a package
 * it was not given is a 404: nothing comes from the internet), publishing for authenticated users;
 * one user made through the registry's own API ({@code PUT /-/user/org.couchdb.user:NAME}, as
 * {@code npm adduser} does), whose token {@link #npmrc} writes.
 */
final class NpmRegistry implements AutoCloseable {
  static final Path VERDACCIO = Peers.INTEROP.resolve("tools/node_modules/verdaccio/bin/verdaccio");

  private final Process process;
  private final String url;
  private final String token;

  private NpmRegistry(Process process, String url, String token) {
    this.process = process;
    this.url = url;
    this.token = token;
  }

  /**
   * Skips the calling test when Verdaccio is not installed, except in CI, where its absence is a
   * failure.
   */
  static void require() {
    boolean installed = Files.isRegularFile(VERDACCIO);
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException("Verdaccio is missing in CI: npm ci --prefix interop/tools");
    }
    Assumptions.assumeThat(installed)
        .as("Verdaccio installed (npm ci --prefix interop/tools)")
        .isTrue();
  }

  /**
   * Starts the registry with its files in {@code dir}; returns once it answers and its user exists
   * (60 s at most).
   */
  static NpmRegistry start(Path dir) throws Exception {
    Files.createDirectories(dir);
    int port = Peers.freePort();
    Path config = dir.resolve("config.yaml");
    // The tarballs are 15 and 35 MB: the default body limit (10 MB) would refuse the runtime
    // package.
    Files.writeString(
        config,
        String.join(
            "\n",
            "storage: " + dir.resolve("storage"),
            "auth:",
            "  htpasswd:",
            "    file: " + dir.resolve("htpasswd"),
            "    max_users: 10",
            "uplinks: {}",
            "packages:",
            "  '@*/*':",
            "    access: $all",
            "    publish: $authenticated",
            "  '**':",
            "    access: $all",
            "    publish: $authenticated",
            "max_body_size: 200mb",
            "web:",
            "  enable: false",
            "middlewares:",
            "  audit:",
            "    enabled: false",
            "log: { type: stdout, format: pretty, level: warn }",
            ""),
        UTF_8);
    ProcessBuilder pb = new ProcessBuilder(
            "node",
            VERDACCIO.toString(),
            "--config",
            config.toString(),
            "--listen",
            "127.0.0.1:" + port)
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("verdaccio.log").toFile());
    Process p = pb.start();
    String url = "http://127.0.0.1:" + port + "/";
    try {
      Poll.port(p, port, Duration.ofSeconds(60));
      String token = addUser(url, "release", "release-" + Long.toHexString(System.nanoTime()));
      return new NpmRegistry(p, url, token);
    } catch (Throwable e) {
      stop(p);
      throw new AssertionError(
          "Verdaccio did not start: " + Files.readString(dir.resolve("verdaccio.log")), e);
    }
  }

  private static String addUser(String url, String name, String password) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> made = http.send(
          HttpRequest.newBuilder(URI.create(url + "-/user/org.couchdb.user:" + name))
              .timeout(Duration.ofSeconds(20))
              .header("Content-Type", "application/json")
              .PUT(HttpRequest.BodyPublishers.ofString("{\"name\":" + TerminalClients.json(name)
                  + ",\"password\":" + TerminalClients.json(password)
                  + ",\"type\":\"user\",\"roles\":[]}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      if (made.statusCode() != 201) {
        throw new AssertionError("adding a user: " + made.statusCode() + " " + made.body());
      }
      return ((JsonObject) JsonCodec.parse(made.body())).string("token").orElseThrow();
    }
  }

  /** The registry's URL, with its trailing slash ({@code http://127.0.0.1:PORT/}). */
  String url() {
    return url;
  }

  /**
   * Writes {@code file}, an npmrc naming this registry, with the user's token when
   * {@code withToken}.
   */
  Path npmrc(Path file, boolean withToken) throws Exception {
    String host = url.substring("http:".length());
    Files.writeString(
        file,
        "registry=" + url + "\n" + (withToken ? host + ":_authToken=" + token + "\n" : ""),
        UTF_8);
    return file;
  }

  /** What {@code name} is as the registry holds it: its packument, or null for a 404. */
  @org.jspecify.annotations.Nullable
  JsonObject packument(String name) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> got = http.send(
          HttpRequest.newBuilder(URI.create(url + name.replace("/", "%2f")))
              .timeout(Duration.ofSeconds(20))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      return got.statusCode() == 404 ? null : (JsonObject) JsonCodec.parse(got.body());
    }
  }

  @Override
  public void close() throws Exception {
    stop(process);
  }

  private static void stop(Process p) throws InterruptedException {
    List<ProcessHandle> tree = p.toHandle().descendants().toList();
    p.destroy();
    if (!p.waitFor(20, TimeUnit.SECONDS)) {
      p.destroyForcibly();
    }
    TerminalClients.awaitExit(tree);
  }
}
