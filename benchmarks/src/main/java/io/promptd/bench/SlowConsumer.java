package io.promptd.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * A client that never reads: over a raw socket with a small receive buffer it opens a stream (a
 * legacy GET stream, a {@code subscriptions/listen} stream) or pipelines requests with large
 * answers, then reads nothing until the soak ends. The server must neither grow memory nor hold up
 * other clients because of it.
 */
final class SlowConsumer {
  private static final int RECEIVE_BUFFER = 2048;
  private final int index;
  private final URI uri;
  private Socket socket;

  SlowConsumer(int index, URI uri) {
    this.index = index;
    this.uri = uri;
  }

  String kind() {
    return switch (index % 3) {
      case 0 -> "legacy GET stream";
      case 1 -> "subscriptions/listen stream";
      default -> "pipelined prompts/get with 256 KiB answers";
    };
  }

  /**
   * Connects and writes its requests (on the calling thread; writing may block once the server
   * stops reading).
   */
  void start(HttpClient http) throws IOException, InterruptedException {
    String request;
    switch (index % 3) {
      case 0 -> {
        String version = "2025-11-25";
        HttpResponse<String> r = http.send(
            SoakWire.post(
                    uri,
                    SoakWire.request(
                        0,
                        "initialize",
                        "{\"protocolVersion\":\"" + version
                            + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"slow\","
                            + "\"version\":\"1\"}}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
        String sid = r.headers()
            .firstValue("Mcp-Session-Id")
            .orElseThrow(
                () -> new IOException("slow consumer: initialize answered HTTP " + r.statusCode()));
        http.send(
            SoakWire.post(
                    uri,
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "Mcp-Session-Id",
                    sid,
                    "MCP-Protocol-Version",
                    version)
                .build(),
            HttpResponse.BodyHandlers.discarding());
        request = head(
            "GET",
            "Accept: text/event-stream\r\nMcp-Session-Id: " + sid + "\r\nMCP-Protocol-Version: "
                + version + "\r\n",
            "");
      }
      case 1 ->
        request = head(
            "POST",
            "Accept: " + SoakWire.ACCEPT_BOTH + "\r\nContent-Type: application/json\r\n"
                + "MCP-Protocol-Version: " + SoakWire.MODERN
                + "\r\nMcp-Method: subscriptions/listen\r\n",
            SoakWire.modern(
                1, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}"));
      default -> {
        String text = "x".repeat(256 * 1024);
        StringBuilder many = new StringBuilder();
        for (int i = 1; i <= 16; i++) {
          many.append(head(
              "POST",
              "Accept: " + SoakWire.ACCEPT_BOTH + "\r\nContent-Type: application/json\r\n"
                  + "MCP-Protocol-Version: " + SoakWire.MODERN
                  + "\r\nMcp-Method: prompts/get\r\nMcp-Name: translate\r\n",
              SoakWire.modern(
                  i,
                  "prompts/get",
                  "\"name\":\"translate\",\"arguments\":{\"text\":\"" + text
                      + "\",\"language\":\"French\"}")));
        }
        request = many.toString();
      }
    }
    Socket s = new Socket();
    s.setReceiveBufferSize(RECEIVE_BUFFER);
    s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5_000);
    socket = s;
    OutputStream out = s.getOutputStream();
    out.write(request.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private String head(String method, String headers, String body) {
    int length = body.getBytes(StandardCharsets.UTF_8).length;
    return method + " " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":"
        + uri.getPort() + "\r\n" + headers
        + (method.equals("POST") ? "Content-Length: " + length + "\r\n" : "") + "\r\n" + body;
  }

  void close() {
    Socket s = socket;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // the server may have closed it first
      }
    }
  }
}
