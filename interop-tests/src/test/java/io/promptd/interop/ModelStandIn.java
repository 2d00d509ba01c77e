package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * A local stand-in for a model provider's API (Anthropic's, Gemini's, an OpenAI-compatible one): a
 * terminal client pointed at it ({@code ANTHROPIC_BASE_URL}, {@code GOOGLE_GEMINI_BASE_URL}, …)
 * sends it the conversation, so the test reads exactly what a rendered prompt put into the request
 * — the text that reached the model. Every request is recorded; each is answered by the
 * {@link Responder} given (a canned reply in the provider's format).
 */
final class ModelStandIn implements AutoCloseable {
  /** One request as received. */
  record Exchange(String method, String path, String body) {}

  /** A reply: status, content type, body. */
  record Reply(int status, String contentType, String body) {}

  /** Answers a request. */
  @FunctionalInterface
  interface Responder {
    Reply reply(Exchange request);
  }

  private final HttpServer server;
  private final List<Exchange> received = new ArrayList<>();

  private ModelStandIn(HttpServer server) {
    this.server = server;
  }

  /** Starts on a free loopback port. */
  static ModelStandIn start(Responder responder) throws IOException {
    HttpServer http =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    ModelStandIn standIn = new ModelStandIn(http);
    http.createContext("/", exchange -> standIn.handle(exchange, responder));
    http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    http.start();
    return standIn;
  }

  /** {@code http://127.0.0.1:PORT} (no trailing slash). */
  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Every request so far, in arrival order. */
  synchronized List<Exchange> requests() {
    return List.copyOf(received);
  }

  /**
   * Returns the first request whose body contains {@code text}, waiting for it up to
   * {@code within}.
   */
  Exchange await(String text, Duration within) throws Exception {
    Exchange[] found = new Exchange[1];
    Poll.until(
        within,
        Duration.ofMillis(200),
        () ->
            "a request to the model stand-in containing \"" + text + "\"; it received " + summary(),
        () -> {
          for (Exchange e : requests()) {
            if (e.body().contains(text)) {
              found[0] = e;
              return true;
            }
          }
          return false;
        });
    return found[0];
  }

  private String summary() {
    List<String> lines = new ArrayList<>();
    for (Exchange e : requests()) {
      lines.add(e.method() + " " + e.path() + " (" + e.body().length() + " chars)");
    }
    return lines.isEmpty() ? "nothing" : String.join(", ", lines);
  }

  private void handle(HttpExchange exchange, Responder responder) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), UTF_8);
      Exchange e =
          new Exchange(exchange.getRequestMethod(), exchange.getRequestURI().toString(), body);
      synchronized (this) {
        received.add(e);
      }
      Reply reply = responder.reply(e);
      byte[] out = reply.body().getBytes(UTF_8);
      exchange.getResponseHeaders().set("Content-Type", reply.contentType());
      exchange.sendResponseHeaders(reply.status(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        exchange.getResponseBody().write(out);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
