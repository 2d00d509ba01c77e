package io.promptd.mcp.client;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.RequestHeaders;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A server at a Streamable HTTP endpoint. Each request is one POST answered with JSON or an SSE
 * stream; in the legacy era a session id rides on every request and a GET stream carries server
 * notifications. A server that only speaks the 2024-11-05 HTTP+SSE transport is served through an
 * {@link SseLink} once {@link #useSseTransport} found it.
 */
final class HttpChannel implements Channel {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.client");

  private final URI uri;
  private final HttpClient http;
  private final Map<RequestId, InputStream> open = new ConcurrentHashMap<>();
  private final Map<RequestId, Thread> sending = new ConcurrentHashMap<>();
  private volatile Consumer<Notification> listener = n -> {};
  private volatile Function<Request, Response> requests = ServerRequests::pingOnly;
  private volatile @Nullable String sessionId;
  private volatile @Nullable String protocolVersion;
  private volatile boolean modern;
  private volatile @Nullable InputStream eventStream;
  private volatile @Nullable SseLink sse;
  private final Map<String, String> headers;

  HttpChannel(URI uri, Duration connectTimeout) {
    this(uri, connectTimeout, Map.of());
  }

  /** A channel that sends {@code headers} (such as {@code Authorization}) with every request. */
  HttpChannel(URI uri, Duration connectTimeout, Map<String, String> headers) {
    this.uri = uri;
    this.headers = Map.copyOf(headers);
    this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
  }

  /**
   * From now on send the modern headers ({@code Mcp-Method}, {@code Mcp-Name}) and this protocol
   * version.
   */
  void useModern(String version) {
    modern = true;
    protocolVersion = version;
  }

  /** From now on send the legacy session's id and protocol version. */
  void useLegacy(String version) {
    modern = false;
    protocolVersion = version;
  }

  @Nullable
  String sessionId() {
    return sessionId;
  }

  /**
   * Switches to the 2024-11-05 HTTP+SSE transport, as the spec's backwards-compatibility rules tell
   * a client to when its {@code initialize} POST fails with 400, 404 or 405: a GET to the same URL
   * must open an event stream whose first event names the URL to POST to.
   *
   * @throws IOException when the URL opens no such stream
   */
  void useSseTransport(Duration timeout) throws IOException {
    modern = false;
    try {
      sse = SseLink.open(
          http, uri, timeout, this::baseFor, n -> listener.accept(n), r -> requests.apply(r));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** Whether the server is served over the old HTTP+SSE transport. */
  boolean sseTransport() {
    return sse != null;
  }

  /** The server no longer knows the legacy session (404): the next request starts without an id. */
  void forgetSession(String id) {
    if (id.equals(sessionId)) {
      sessionId = null;
      closeEventStream();
    }
  }

  @Override
  public CompletableFuture<Response> call(Request request) {
    SseLink link = sse;
    if (link != null) {
      return link.call(request);
    }
    CompletableFuture<Response> future = new CompletableFuture<>();
    Thread thread = Thread.ofVirtual().name("mcp-client-http").unstarted(() -> {
      try {
        future.complete(exchange(request));
      } catch (IOException | RuntimeException e) {
        future.completeExceptionally(e);
      } catch (InterruptedException e) {
        future.completeExceptionally(
            new IOException(request.method() + " to " + uri + " was cancelled", e));
      } finally {
        open.remove(request.id());
        sending.remove(request.id());
      }
    });
    sending.put(request.id(), thread);
    thread.start();
    return future;
  }

  private Response exchange(Request request) throws IOException, InterruptedException {
    HttpResponse<InputStream> response =
        http.send(post(request), HttpResponse.BodyHandlers.ofInputStream());
    response.headers().firstValue("Mcp-Session-Id").ifPresent(id -> sessionId = id);
    String type = response.headers().firstValue("Content-Type").orElse("");
    String where = request.method() + " to " + uri;
    try (InputStream body = response.body()) {
      open.put(request.id(), body);
      if (type.startsWith("text/event-stream")) {
        Response r = readEvents(body, request.id());
        if (r == null) {
          throw new IOException(where + ": HTTP " + response.statusCode()
              + ", the event stream ended before the response to request "
              + request.id().value());
        }
        return r;
      }
      byte[] bytes = body.readAllBytes();
      if (type.startsWith("application/json")
          && MessageCodec.decode(bytes, 0, bytes.length) instanceof Incoming.Single(Response r)) {
        if (r.id() == null || r.id().equals(request.id())) {
          return r;
        }
        throw new IOException(where + ": the response names request " + r.id().value() + ", not "
            + request.id().value());
      }
      if (response.statusCode() >= 200 && response.statusCode() < 300) {
        throw new IOException(where + ": HTTP " + response.statusCode() + " with "
            + (type.isEmpty() ? "no Content-Type" : "Content-Type '" + type + "'")
            + (type.startsWith("application/json") ? " but no JSON-RPC response in the body" : "")
            + "; expected a JSON-RPC response as application/json or text/event-stream");
      }
      throw new HttpStatusException(
          response.statusCode(), new String(bytes, 0, Math.min(bytes.length, 500), UTF_8));
    }
  }

  private HttpRequest post(Request request) {
    HttpRequest.Builder b = base()
        .POST(HttpRequest.BodyPublishers.ofString(MessageCodec.encode(request)))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream");
    if (modern) {
      b.header("Mcp-Method", request.method());
      request
          .params()
          .string(request.method().equals(Methods.RESOURCES_READ) ? "uri" : "name")
          .filter(n -> request.method().equals(Methods.PROMPTS_GET)
              || request.method().equals(Methods.RESOURCES_READ)
              || request.method().equals(Methods.TOOLS_CALL))
          .ifPresent(name -> b.header("Mcp-Name", RequestHeaders.encoded(name)));
    }
    return b.build();
  }

  private HttpRequest.Builder base() {
    HttpRequest.Builder b = baseFor(uri);
    String session = sessionId;
    if (session != null && !modern) {
      b.header("Mcp-Session-Id", session);
    }
    return b;
  }

  /** A request to {@code target} with the protocol version once there is one. */
  private HttpRequest.Builder baseFor(URI target) {
    HttpRequest.Builder b = HttpRequest.newBuilder(target);
    headers.forEach(b::header);
    String version = protocolVersion;
    if (version != null) {
      b.header("MCP-Protocol-Version", version);
    }
    return b;
  }

  /**
   * Reads SSE events until the response to {@code id} arrives; notifications on the way go to the
   * listener.
   */
  private @Nullable Response readEvents(InputStream body, @Nullable RequestId id)
      throws IOException {
    BufferedReader reader = new BufferedReader(new InputStreamReader(body, UTF_8));
    StringBuilder data = new StringBuilder();
    for (String line = reader.readLine(); line != null; line = reader.readLine()) {
      if (line.startsWith("data:")) {
        data.append(data.isEmpty() ? "" : "\n")
            .append(line.substring(line.startsWith("data: ") ? 6 : 5));
      } else if (line.isEmpty() && !data.isEmpty()) {
        Incoming incoming = MessageCodec.decode(data.toString());
        data.setLength(0);
        if (incoming instanceof Incoming.Single(Notification n)) {
          listener.accept(n);
        } else if (incoming instanceof Incoming.Single(Request r)) {
          answerServerRequest(r);
        } else if (incoming instanceof Incoming.Single(Response r)
            && r.id() != null
            && r.id().equals(id)) {
          return r;
        }
      }
    }
    return null;
  }

  /**
   * Opens the legacy GET stream for server notifications and returns once the server answered it:
   * with an event stream, read from then on by a background thread, or with 405 (the server offers
   * none; it may still send notifications on POST responses). Does nothing when a stream is open
   * already.
   *
   * @throws HttpStatusException when the server answers anything else
   */
  synchronized void openEventStream(Duration timeout) throws IOException {
    if (eventStream != null || sse != null) {
      return; // open already, or the HTTP+SSE stream carries notifications
    }
    HttpRequest get =
        base().GET().header("Accept", "text/event-stream").timeout(timeout).build();
    HttpResponse<InputStream> response;
    try {
      response = http.send(get, HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpTimeoutException e) {
      throw new RequestTimeoutException("GET (event stream)", timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("opening the event stream at " + uri + " was interrupted", e);
    }
    InputStream body = response.body();
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (response.statusCode() == 405) {
      body.close();
      LOG.log(Level.DEBUG, "{0} offers no GET stream (HTTP 405)", uri);
      return;
    }
    if (response.statusCode() != 200 || !type.startsWith("text/event-stream")) {
      byte[] start = body.readNBytes(500);
      body.close();
      if (response.statusCode() == 200) {
        throw new IOException("GET " + uri + ": HTTP 200 with Content-Type '" + type
            + "'; expected text/event-stream or 405");
      }
      throw new HttpStatusException(
          response.statusCode(), "GET (event stream) " + new String(start, UTF_8));
    }
    eventStream = body;
    Thread.ofVirtual().name("mcp-client-events").start(() -> {
      try (body) {
        readEvents(body, null);
      } catch (IOException e) {
        LOG.log(Level.DEBUG, "GET stream ended: {0}", e.getMessage());
      } finally {
        synchronized (this) {
          if (body.equals(eventStream)) {
            eventStream = null;
          }
        }
      }
    });
  }

  private synchronized void closeEventStream() {
    InputStream events = eventStream;
    eventStream = null;
    if (events != null) {
      try {
        events.close();
      } catch (IOException e) {
        LOG.log(Level.DEBUG, "closing the GET stream failed: {0}", e.getMessage());
      }
    }
  }

  @Override
  public void cancel(Request request) {
    SseLink link = sse;
    if (link != null) {
      link.cancel(request);
      return;
    }
    Thread thread = sending.remove(request.id());
    if (thread != null) {
      thread.interrupt(); // still waiting for the answer's headers: abandons the exchange
    }
    InputStream body = open.remove(request.id());
    if (body != null) {
      try {
        body.close(); // closing the response stream is the cancellation signal on HTTP
      } catch (IOException e) {
        LOG.log(Level.DEBUG, "closing a stream failed: {0}", e.getMessage());
      }
    }
  }

  @Override
  public void notify(Notification notification) throws IOException {
    SseLink link = sse;
    if (link != null) {
      link.notify(notification);
      return;
    }
    postMessage(notification, "notification " + notification.method());
  }

  /**
   * A server's request (on a POST's event stream or the GET stream) is answered on a thread of its
   * own, with a POST of the response in the session, as Streamable HTTP sends every client message.
   */
  private void answerServerRequest(Request r) {
    Thread.ofVirtual().name("mcp-client-server-request").start(() -> {
      try {
        postMessage(requests.apply(r), "the answer to the server's " + r.method());
      } catch (IOException e) {
        LOG.log(Level.DEBUG, "could not answer the server''s {0}: {1}", r.method(), e.getMessage());
      }
    });
  }

  private void postMessage(Message message, String what) throws IOException {
    HttpRequest post = base()
        .POST(HttpRequest.BodyPublishers.ofString(MessageCodec.encode(message)))
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
        .build();
    try {
      HttpResponse<Void> response = http.send(post, HttpResponse.BodyHandlers.discarding());
      if (response.statusCode() >= 300) {
        throw new HttpStatusException(response.statusCode(), what + " refused");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  @Override
  public void onNotification(Consumer<Notification> listener) {
    this.listener = listener;
  }

  @Override
  public void onRequest(Function<Request, Response> handler) {
    this.requests = handler;
  }

  @Override
  public String describe() {
    return uri.toString();
  }

  @Override
  public void close() {
    SseLink link = sse;
    if (link != null) {
      link.close(); // the server ends the session with its stream
    }
    closeEventStream();
    try {
      String session = sessionId;
      if (session != null && !modern) {
        http.send(base().DELETE().build(), HttpResponse.BodyHandlers.discarding());
      }
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "closing the session failed: {0}", e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    http.close();
  }
}
