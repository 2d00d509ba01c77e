package io.promptd.interop;

import static org.assertj.core.api.Assumptions.assumeThat;

import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the peers live and how to start them: Node packages pinned in {@code interop/package.json}.
 */
final class Peers {
  static final Path ROOT =
      Path.of(System.getProperty("promptd.root", "..")).toAbsolutePath().normalize();
  static final Path INTEROP = ROOT.resolve("interop");
  static final Path NODE_MODULES = INTEROP.resolve("node_modules");

  private Peers() {}

  /**
   * Skips the calling test when the Node packages are not installed ({@code npm ci --prefix
   * interop}), except in CI, where their absence is a failure.
   */
  static void requireNode() {
    boolean installed = Files.isDirectory(NODE_MODULES.resolve("@modelcontextprotocol"));
    if (!installed && "true".equals(System.getenv("CI"))) {
      throw new IllegalStateException(
          "interop/node_modules is missing in CI: run npm ci --prefix interop");
    }
    assumeThat(installed)
        .as("Node packages installed in interop/ (npm ci --prefix interop)")
        .isTrue();
  }

  static List<String> node(String... args) {
    List<String> command = new ArrayList<>(List.of("node"));
    command.addAll(List.of(args));
    return command;
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Starts a background server process and waits until its port accepts connections. */
  static Process startHttp(List<String> command, int port) throws Exception {
    Process p = new ProcessBuilder(command)
        .directory(INTEROP.toFile())
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    try {
      Poll.port(p, port, Duration.ofSeconds(30));
      return p;
    } catch (AssertionError e) {
      p.destroyForcibly();
      throw new AssertionError(e.getMessage() + ": " + command, e);
    }
  }

  static URI mcpUrl(int port) {
    return URI.create("http://127.0.0.1:" + port + "/mcp");
  }

  /**
   * The preload ({@code node --require}) that binds a Node server listening on a bare port to
   * 127.0.0.1 only.
   */
  static Path loopback() {
    return INTEROP.resolve("loopback.cjs");
  }

  static Path everything() {
    return NODE_MODULES.resolve("@modelcontextprotocol/server-everything/dist/index.js");
  }
}
