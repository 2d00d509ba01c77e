package io.promptd.mcp.http.internal.mcp;

import io.promptd.mcp.http.RequestEvent;
import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.auth.Guard;
import io.promptd.mcp.http.internal.exchange.Eras;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.Route;
import io.promptd.mcp.http.internal.exchange.Runner;
import io.promptd.mcp.http.internal.exchange.StreamLimit;
import io.promptd.mcp.http.internal.exchange.Work;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Admission;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The Streamable HTTP endpoint: after the gate (Host, Origin, credentials), the method, Accept and
 * size checks, the core decides the era of a POST ({@link McpServer#admit}) and the request goes to
 * the legacy or the modern endpoint.
 */
public final class McpEndpoint implements Route {
  private final Gate gate;
  private final int maxBodyBytes;
  private final LegacyEndpoint legacy;
  private final ModernEndpoint modern;
  private final StreamLimit streams;
  private final McpServer server;

  public McpEndpoint(
      McpServer server,
      Gate gate,
      int maxBodyBytes,
      LegacyEndpoint legacy,
      ModernEndpoint modern,
      StreamLimit streams) {
    this.gate = gate;
    this.maxBodyBytes = maxBodyBytes;
    this.legacy = legacy;
    this.modern = modern;
    this.streams = streams;
    this.server = server;
  }

  @Override
  public void serve(Exchange ex) throws IOException, InterruptedException {
    if (!gate.admitted(ex)) {
      return;
    }
    switch (ex.method()) {
      case "POST" -> {
        if (postHeadersOk(ex)) {
          postBody(ex, Runner.HERE);
        }
      }
      case "GET" -> {
        ex.describe(RequestEvent.Era.LEGACY, null, null);
        String client = streams.acquire(ex);
        if (client != null) {
          try {
            legacy.get(ex);
          } finally {
            streams.release(client);
          }
        }
      }
      case "DELETE" -> {
        ex.describe(RequestEvent.Era.LEGACY, null, null);
        legacy.delete(ex);
      }
      default -> {
        ex.setHeader("Allow", "GET, POST, DELETE");
        ex.refuse(405, "Method Not Allowed: use POST (or GET and DELETE for a legacy session)");
      }
    }
  }

  /**
   * Serves a POST on the thread that parsed it: its checks, then its body if it has arrived whole,
   * with {@code inline} running what cannot block right here; a body still arriving is read by
   * {@code elsewhere}'s thread.
   */
  public void postInline(Exchange ex, Runner inline, Consumer<Work> elsewhere) {
    if (!gate.admitted(ex) || !postHeadersOk(ex)) {
      return; // refused
    }
    if (ex.declaredLength() > maxBodyBytes) {
      tooLarge(ex);
      return;
    }
    byte[] body = ex.bodyIfArrived(maxBodyBytes);
    if (body == null) {
      elsewhere.accept(() -> postBody(ex, Runner.HERE)); // the rest is on its way
    } else {
      postBody(ex, body, inline);
    }
  }

  /** A POST's Accept and Content-Type; false after refusing it. */
  private static boolean postHeadersOk(Exchange ex) {
    if (!Guard.accepts(ex.headers("Accept"), "application/json")
        || !Guard.accepts(ex.headers("Accept"), "text/event-stream")) {
      ex.refuse(406, "Not Acceptable: Accept must list application/json and text/event-stream");
      return false;
    }
    if (!Guard.isJson(ex.header("Content-Type"))) {
      ex.refuse(415, "Unsupported Media Type: the body must be application/json");
      return false;
    }
    return true;
  }

  private void tooLarge(Exchange ex) {
    ex.setHeader("Connection", "close"); // we did not read the rest of the body
    ex.refuse(413, "Content Too Large: the body exceeds " + maxBodyBytes + " bytes");
  }

  /** Reads the body, blocking, then serves it. */
  private void postBody(Exchange ex, Runner runner) throws IOException {
    byte[] body = ex.declaredLength() > maxBodyBytes ? null : ex.body(maxBodyBytes);
    if (body == null) {
      tooLarge(ex);
    } else {
      postBody(ex, body, runner);
    }
  }

  private void postBody(Exchange ex, byte[] body, Runner runner) {
    Incoming in = MessageCodec.decode(body, 0, body.length);
    RequestHeaders headers = new RequestHeaders(
        ex.header(Eras.PROTOCOL_VERSION_HEADER),
        ex.header(Eras.METHOD_HEADER),
        ex.header(Eras.NAME_HEADER),
        ex.remoteAddress());
    switch (server.admit(headers, in, ex.header(Eras.SESSION_HEADER) != null)) {
      case Admission.Stateless stateless -> {
        describe(ex, RequestEvent.Era.MODERN, in, server);
        modern.post(ex, in, headers, runner);
      }
      case Admission.Listen listen -> {
        describe(ex, RequestEvent.Era.MODERN, in, server);
        listen(ex, in, headers, runner);
      }
      case Admission.Rejected(Reply reply) -> {
        describe(ex, RequestEvent.Era.NONE, in, server);
        ex.reply(reply);
      }
      case Admission.InSession session -> {
        describe(ex, RequestEvent.Era.LEGACY, in, server);
        legacy.post(ex, in, runner);
      }
      case Admission.Initialize(Request r) -> {
        describe(ex, RequestEvent.Era.LEGACY, in, server);
        legacy.initialize(ex, r);
      }
      case Admission.NoSession none -> {
        describe(ex, RequestEvent.Era.NONE, in, server);
        ex.refuse(
            400,
            "Bad Request: Mcp-Session-Id header is required (send initialize first, or send a"
                + " 2026-07-28 request with MCP-Protocol-Version)");
      }
    }
  }

  /**
   * A {@code subscriptions/listen} stream, which counts against its client's stream limit until it
   * ends.
   */
  private void listen(Exchange ex, Incoming in, RequestHeaders headers, Runner runner) {
    String client = streams.acquire(ex);
    if (client == null) {
      return; // refused
    }
    AtomicBoolean handedOver = new AtomicBoolean();
    try {
      modern.post(ex, in, headers, (mayBlock, work) -> {
        handedOver.set(true);
        runner.run(mayBlock, () -> {
          try {
            work.run();
          } finally {
            streams.release(client);
          }
        });
      });
    } finally {
      if (!handedOver.get()) {
        streams.release(client);
      }
    }
  }

  /**
   * Notes the era, method and prompt of a decoded body for its request event: map look-ups, no
   * second parse; the prompt is the one the method's row in {@code server}'s table says the request
   * names.
   */
  public static void describe(Exchange ex, RequestEvent.Era era, Incoming in, McpServer server) {
    switch (in) {
      case Incoming.Single(Request r) ->
        ex.describe(
            era,
            r.method(),
            server.method(r.method()).map(m -> m.prompt(r.params())).orElse(null));
      case Incoming.Single(Notification n) -> ex.describe(era, n.method(), null);
      default -> ex.describe(era, null, null);
    }
  }
}
