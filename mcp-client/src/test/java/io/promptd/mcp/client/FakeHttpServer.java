package io.promptd.mcp.client;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A real HTTP server on a loopback port that answers as each test tells it to, misbehaving on
 * purpose. Every exchange is recorded (method, JSON-RPC method, request headers) so that a test can
 * check what the client sent.
 */
final class FakeHttpServer implements AutoCloseable {
  /** One HTTP request as the server saw it. */
  record Seen(String httpMethod, String rpcMethod, Map<String, List<String>> headers, String body) {
    String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().getFirst())
          .findFirst()
          .orElse("");
    }
  }

  /** Answers one request; {@code rpc} is the posted JSON (empty for GET and DELETE). */
  interface Handler {
    void handle(Seen seen, JsonObject rpc, HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  final List<Seen> seen = new CopyOnWriteArrayList<>();

  FakeHttpServer(Handler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/mcp", exchange -> {
      try (exchange) {
        answer(handler, exchange);
      }
    });
    server.start();
  }

  private void answer(Handler handler, HttpExchange exchange) {
    try {
      String body = new String(exchange.getRequestBody().readAllBytes(), UTF_8);
      JsonObject rpc = body.isEmpty()
          ? JsonObject.EMPTY
          : JsonCodec.parse(body) instanceof JsonObject o ? o : JsonObject.EMPTY;
      Seen s = new Seen(
          exchange.getRequestMethod(),
          rpc.string("method").orElse(""),
          Map.copyOf(exchange.getRequestHeaders()),
          body);
      seen.add(s);
      handler.handle(s, rpc, exchange);
    } catch (IOException e) {
      // the client went away; nothing to answer
    }
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
  }

  /** The JSON-RPC methods POSTed so far, in order. */
  List<String> methods() {
    return seen.stream()
        .filter(s -> s.httpMethod().equals("POST"))
        .map(Seen::rpcMethod)
        .toList();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /** Sends {@code body} with {@code status} and {@code type} in one piece. */
  static void send(HttpExchange exchange, int status, String type, String body, String... headers)
      throws IOException {
    byte[] bytes = body.getBytes(UTF_8);
    if (!type.isEmpty()) {
      exchange.getResponseHeaders().set("Content-Type", type);
    }
    for (int i = 0; i < headers.length; i += 2) {
      exchange.getResponseHeaders().set(headers[i], headers[i + 1]);
    }
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }

  /** Starts an event stream: the caller writes events with {@link #event} and returns to end it. */
  static OutputStream startEvents(HttpExchange exchange) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    out.flush(); // the headers go now, not with the first event
    return out;
  }

  static void event(OutputStream out, String data) throws IOException {
    out.write(("data: " + data + "\n\n").getBytes(UTF_8));
    out.flush();
  }

  /** A JSON-RPC result answering {@code rpc}. */
  static String result(JsonObject rpc, String resultJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id(rpc) + ",\"result\":" + resultJson + "}";
  }

  /** A JSON-RPC error answering {@code rpc}. */
  static String error(JsonObject rpc, int code, String message) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id(rpc) + ",\"error\":{\"code\":" + code
        + ",\"message\":\"" + message + "\"}}";
  }

  static String id(JsonObject rpc) {
    Json id = rpc.get("id");
    return id == null ? "null" : JsonCodec.write(id);
  }

  static final String MODERN_DISCOVER = "{\"supportedVersions\":[\"2026-07-28\"],\"capabilities\":"
      + "{\"prompts\":{\"listChanged\":true}},\"_meta\":{\"io.modelcontextprotocol/serverInfo\":"
      + "{\"name\":\"fake\",\"version\":\"1\"}},\"resultType\":\"complete\"}";

  static final String LEGACY_INIT =
      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"prompts\":"
          + "{\"listChanged\":true}},\"serverInfo\":{\"name\":\"fake-legacy\",\"version\":\"1\"}}";

  static final String PROMPTS = "{\"prompts\":[{\"name\":\"greet\"}]}";
}
