package io.promptd.mcp.client;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The client side of the 2024-11-05 HTTP+SSE transport, for servers that predate Streamable HTTP: a
 * GET opens the stream, whose first event ({@code endpoint}) names the URL every message is POSTed
 * to; responses and notifications arrive as {@code message} events on the stream and are matched to
 * requests by id.
 */
final class SseLink implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.client");

  private final HttpClient http;
  private final Function<URI, HttpRequest.Builder> requests;
  private final Function<Request, Response> serverRequests;
  private final Consumer<Notification> notifications;
  private final Map<RequestId, CompletableFuture<Response>> pending = new ConcurrentHashMap<>();
  private final CompletableFuture<URI> endpoint = new CompletableFuture<>();
  private volatile boolean ended;
  private volatile InputStream stream = InputStream.nullInputStream();

  private SseLink(
      HttpClient http,
      Function<URI, HttpRequest.Builder> requests,
      Consumer<Notification> notifications,
      Function<Request, Response> serverRequests) {
    this.http = http;
    this.requests = requests;
    this.notifications = notifications;
    this.serverRequests = serverRequests;
  }

  /**
   * Opens the stream at {@code url} and waits up to {@code timeout} for its endpoint event.
   *
   * @param requests a request builder for a URL, with the headers every request carries
   * @throws HttpStatusException when the GET is not answered with an event stream
   * @throws IOException when the stream ends, or names no endpoint (or one on another origin) in
   *     time
   */
  static SseLink open(
      HttpClient http,
      URI url,
      Duration timeout,
      Function<URI, HttpRequest.Builder> requests,
      Consumer<Notification> notifications,
      Function<Request, Response> serverRequests)
      throws IOException, InterruptedException {
    SseLink link = new SseLink(http, requests, notifications, serverRequests);
    HttpResponse<InputStream> response;
    try {
      response = http.sendAsync(
              requests.apply(url).GET().header("Accept", "text/event-stream").build(),
              HttpResponse.BodyHandlers.ofInputStream())
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io
          ? io
          : new IOException("GET " + url + ": " + e.getCause(), e);
    } catch (TimeoutException e) {
      throw new IOException("GET " + url + ": no answer within " + timeout, e);
    }
    String type = response.headers().firstValue("Content-Type").orElse("");
    if (response.statusCode() != 200 || !type.startsWith("text/event-stream")) {
      byte[] start = response.body().readNBytes(300);
      response.body().close();
      throw new HttpStatusException(
          response.statusCode(),
          "GET for the HTTP+SSE transport answered " + (type.isEmpty() ? "no content type" : type)
              + (start.length == 0 ? "" : ": " + new String(start, UTF_8)));
    }
    link.stream = response.body();
    Thread.ofVirtual().name("mcp-client-sse").start(() -> link.read(url));
    try {
      link.endpoint.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return link;
    } catch (ExecutionException e) {
      link.close();
      throw e.getCause() instanceof IOException io
          ? io
          : new IOException("GET " + url + ": " + e.getCause(), e);
    } catch (TimeoutException e) {
      link.close();
      throw new IOException("GET " + url + ": no endpoint event within " + timeout, e);
    }
  }

  /**
   * Where a relative or absolute endpoint event points; refused when it leaves the stream's origin.
   */
  static URI resolve(URI stream, String data) throws IOException {
    URI target;
    try {
      target = stream.resolve(data.strip());
    } catch (IllegalArgumentException e) {
      throw new IOException("the endpoint event names no URL: '" + data + "'", e);
    }
    if (!Objects.equals(target.getScheme(), stream.getScheme())
        || !Objects.equals(target.getHost(), stream.getHost())
        || target.getPort() != stream.getPort()) {
      throw new IOException(
          "the endpoint event names another origin than the stream's: '" + data + "'");
    }
    return target;
  }

  /** Sends a request; its response arrives on the stream. */
  CompletableFuture<Response> call(Request request) {
    CompletableFuture<Response> future = new CompletableFuture<>();
    pending.put(request.id(), future);
    if (ended) {
      fail(new IOException("the HTTP+SSE stream has ended"));
      return future;
    }
    Thread.ofVirtual().name("mcp-client-sse-post").start(() -> {
      try {
        post(request);
      } catch (IOException e) {
        pending.remove(request.id());
        future.completeExceptionally(e);
      } catch (InterruptedException e) {
        pending.remove(request.id());
        future.completeExceptionally(e);
      }
    });
    return future;
  }

  /** Sends a notification, waiting for the POST's answer. */
  void notify(Notification notification) throws IOException {
    try {
      post(notification);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** Gives up on a request: {@code notifications/cancelled}, sent without waiting. */
  void cancel(Request request) {
    if (pending.remove(request.id()) == null || ended) {
      return;
    }
    Notification cancelled = new Notification(
        Methods.NOTIFICATION_CANCELLED,
        JsonObject.builder()
            .put("requestId", request.id().value())
            .put("reason", "the client gave up")
            .build());
    Thread.ofVirtual().name("mcp-client-sse-cancel").start(() -> {
      try {
        notify(cancelled);
      } catch (IOException e) {
        LOG.log(Level.DEBUG, "cancelling failed: {0}", e.getMessage());
      }
    });
  }

  private void post(Message message) throws IOException, InterruptedException {
    URI to = endpoint.getNow(null);
    if (to == null) {
      throw new IOException("the HTTP+SSE stream named no endpoint");
    }
    HttpRequest post = requests
        .apply(to)
        .POST(HttpRequest.BodyPublishers.ofString(MessageCodec.encode(message)))
        .header("Content-Type", "application/json")
        .build();
    HttpResponse<String> answer = http.send(post, HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() >= 300) {
      String body = answer.body();
      throw new HttpStatusException(
          answer.statusCode(), body.substring(0, Math.min(body.length(), 500)));
    }
  }

  /** Reads the stream until it ends: the endpoint first, then responses and notifications. */
  private void read(URI url) {
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, UTF_8))) {
      String name = "message";
      StringBuilder data = new StringBuilder();
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        if (line.isEmpty()) {
          if (!data.isEmpty()) {
            event(url, name, data.toString());
          }
          name = "message";
          data.setLength(0);
        } else if (line.startsWith("event:")) {
          name = line.substring(6).strip();
        } else if (line.startsWith("data:")) {
          data.append(data.isEmpty() ? "" : "\n")
              .append(line.substring(line.startsWith("data: ") ? 6 : 5));
        }
      }
      fail(new IOException("the HTTP+SSE stream ended"));
    } catch (IOException e) {
      fail(new IOException("the HTTP+SSE stream failed: " + e.getMessage(), e));
    }
  }

  private void event(URI url, String name, String data) throws IOException {
    if (name.equals("endpoint")) {
      try {
        endpoint.complete(resolve(url, data));
      } catch (IOException e) {
        endpoint.completeExceptionally(e);
        throw e;
      }
      return;
    }
    if (!name.equals("message")) {
      return; // an event this transport does not define: ignored, as SSE clients do
    }
    Incoming incoming = MessageCodec.decode(data);
    if (incoming instanceof Incoming.Single(Response r) && r.id() != null) {
      CompletableFuture<Response> waiting = pending.remove(r.id());
      if (waiting != null) {
        waiting.complete(r);
      }
    } else if (incoming instanceof Incoming.Single(Notification n)) {
      notifications.accept(n);
    } else if (incoming instanceof Incoming.Single(Request r)) {
      Thread.ofVirtual().name("mcp-client-server-request").start(() -> {
        try {
          post(serverRequests.apply(r));
        } catch (IOException e) {
          LOG.log(
              Level.DEBUG, "could not answer the server''s {0}: {1}", r.method(), e.getMessage());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
  }

  /** The stream is gone: every request still waiting fails. */
  private void fail(IOException e) {
    ended = true;
    endpoint.completeExceptionally(e);
    for (RequestId id : List.copyOf(pending.keySet())) {
      CompletableFuture<Response> waiting = pending.remove(id);
      if (waiting != null) {
        waiting.completeExceptionally(e);
      }
    }
  }

  /** Closes the stream, which ends the session on the server. */
  @Override
  public void close() {
    ended = true;
    try {
      stream.close();
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "closing the HTTP+SSE stream failed: {0}", e.getMessage());
    }
  }
}
