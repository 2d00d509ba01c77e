package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code promptd train-cache DIR TRANSCRIPT [--http]}: the launcher's training run for a JVM
 * start-up cache. It runs {@code serve --stdio DIR} itself with the transcript as stdin and, with
 * {@code --http}, then serves DIR over HTTP (a few raw requests on a loopback port), so that what a
 * start loads and links ends up in the cache. Not meant to be run by hand.
 */
final class Training {
  private static final String MODERN_META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private Training() {}

  static int run(List<String> args, PrintStream err) {
    boolean overHttp = args.size() == 3 && args.get(2).equals("--http");
    if (args.size() != 2 && !overHttp) {
      throw new UsageException("train-cache takes DIR TRANSCRIPT [--http]");
    }
    // First exactly what `promptd serve --stdio DIR` runs (library, watcher, client log,
    // transport), then HTTP.
    try {
      byte[] transcript = Files.readAllBytes(Path.of(args.get(1)));
      int served = Serve.run(
          ServeOptions.parse(List.of("--stdio", args.get(0))),
          err,
          new ByteArrayInputStream(transcript),
          OutputStream.nullOutputStream());
      if (served != Main.OK || !overHttp) {
        return served;
      }
    } catch (IOException e) {
      err.println("promptd: training failed: " + e.getMessage());
      return Main.FAILED;
    }
    List<Path> dirs = ServeOptions.directories(List.of(args.get(0)));
    try (Library library = Library.open(LibrarySource.folders(dirs), LibraryOptions.defaults());
        McpServer server =
            McpServer.builder().prompts(library.catalog()).resources(library).build()) {
      System.setProperty("org.eclipse.jetty.util.referencesPerCacheLine", "16");
      try (HttpTransport http =
          HttpTransport.builder().server(server).port(0).build().start()) {
        exchange(
            http.port(),
            "initialize",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
            "");
        exchange(
            http.port(),
            "prompts/list",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/list\",\"params\":{" + MODERN_META
                + "}}",
            "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: prompts/list\r\n");
      }
      return Main.OK;
    } catch (IOException e) {
      err.println("promptd: training failed: " + e.getMessage());
      return Main.FAILED;
    }
  }

  /**
   * One POST over a plain socket: the client side needs no classes the server would not load
   * anyway.
   */
  private static void exchange(int port, String method, String body, String headers)
      throws IOException {
    byte[] json = body.getBytes(UTF_8);
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
              + "\r\nContent-Type: application/json\r\n"
              + "Accept: application/json, text/event-stream\r\n" + headers + "Content-Length: "
              + json.length
              + "\r\nConnection: close\r\n\r\n")
          .getBytes(UTF_8));
      out.write(json);
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readAllBytes(), UTF_8);
      if (!answer.startsWith("HTTP/1.1 200")) {
        throw new IOException(
            method + " was answered " + answer.lines().findFirst().orElse("(nothing)"));
      }
    }
  }
}
