package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.testing.McpWire;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real HTTP client for the MCP endpoint, with helpers for both eras and for reading SSE streams;
 * the raw wire is {@link McpWire}'s, which the soak uses too.
 */
final class TestClient {
  static final String ACCEPT_BOTH = McpWire.ACCEPT_BOTH;
  static final String MODERN = McpWire.MODERN;

  final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();
  final URI uri;
  /** Legacy sessions' negotiated versions by session id. */
  private final Map<String, String> negotiated = new ConcurrentHashMap<>();

  private static final Set<String> KNOWN =
      Set.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", MODERN);

  TestClient(URI uri) {
    this.uri = uri;
  }

  /**
   * POSTs a body; every JSON answer is checked against the official schema of the request's era.
   */
  HttpResponse<String> post(String body, String... headers) {
    HttpResponse<String> r = send(
        builder(headers).POST(HttpRequest.BodyPublishers.ofString(body)),
        HttpResponse.BodyHandlers.ofString());
    if (r.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
      Schemas.checkResponse(version(r, body), method(body), r.body());
    }
    return r;
  }

  /**
   * The version whose schema an answer is checked against: the one the request names in
   * MCP-Protocol-Version, else the one its session negotiated, else the one {@code initialize}
   * negotiates (2025-11-25 when it cannot tell).
   */
  private String version(HttpResponse<String> r, String body) {
    String named = r.request().headers().firstValue("MCP-Protocol-Version").orElse("");
    if (KNOWN.contains(named)) {
      return named;
    }
    String session = r.request().headers().firstValue("Mcp-Session-Id").orElse("");
    String known = negotiated.get(session);
    if (known != null) {
      return known;
    }
    if (method(body).equals("initialize") && r.statusCode() == 200) {
      String version = JsonCodec.parse(r.body()) instanceof JsonObject o
          ? o.object("result").flatMap(res -> res.string("protocolVersion")).orElse("")
          : "";
      if (KNOWN.contains(version)) {
        r.headers().firstValue("Mcp-Session-Id").ifPresent(id -> this.negotiated.put(id, version));
        return version;
      }
    }
    return "2025-11-25";
  }

  private static String method(String body) {
    try {
      return JsonCodec.parse(body) instanceof JsonObject o ? o.string("method").orElse("") : "";
    } catch (RuntimeException e) {
      return ""; // deliberately malformed
    }
  }

  HttpResponse<InputStream> postStream(String body, String... headers) {
    return send(
        builder(headers).POST(HttpRequest.BodyPublishers.ofString(body)),
        HttpResponse.BodyHandlers.ofInputStream());
  }

  HttpResponse<InputStream> getStream(String... headers) {
    return send(
        builder(concat(new String[] {"Accept", "text/event-stream"}, headers)).GET(),
        HttpResponse.BodyHandlers.ofInputStream());
  }

  HttpResponse<String> get(String... headers) {
    return send(builder(headers).GET(), HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> delete(String... headers) {
    return send(builder(headers).DELETE(), HttpResponse.BodyHandlers.ofString());
  }

  /** Opens a legacy session and sends {@code initialized}; returns the session id. */
  String initialize(String version) {
    HttpResponse<String> r = post(request(
        1,
        "initialize",
        "{\"protocolVersion\":\"" + version
            + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}"));
    assertThat(r.statusCode()).isEqualTo(200);
    String id = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(post(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "Mcp-Session-Id",
                id)
            .statusCode())
        .isEqualTo(202);
    return id;
  }

  /** A legacy request body. */
  static String request(long id, String method, String params) {
    return McpWire.request(id, method, params);
  }

  /**
   * A modern request body: {@code params} (an object literal's members, may be empty) plus the
   * per-request _meta.
   */
  static String modern(long id, String method, String members) {
    return McpWire.modern(id, method, members, "test");
  }

  /**
   * The modern metadata headers for {@code method}, with {@code Mcp-Name} when {@code name} is not
   * null.
   */
  static String[] modernHeaders(String method, String name) {
    return McpWire.modernHeaders(method, name);
  }

  static JsonObject json(HttpResponse<String> r) {
    return (JsonObject) JsonCodec.parse(r.body());
  }

  /** The compact JSON text of a value. */
  static String text(Json value) {
    return JsonCodec.write(value);
  }

  /** The JSON-RPC error code of a response body. */
  static long errorCode(HttpResponse<String> r) {
    return ((JsonNumber) json(r).object("error").orElseThrow().get("code")).longValue();
  }

  static JsonObject json(String s) {
    return (JsonObject) JsonCodec.parse(s);
  }

  /**
   * Reads SSE events from a response body on a virtual thread, so tests can wait with a timeout.
   */
  static final class Events implements AutoCloseable {
    record Event(String id, String data) {}

    private final InputStream in;
    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();

    Events(InputStream in) {
      this.in = in;
      Thread.ofVirtual().start(this::pump);
    }

    /** The next event with data (priming events are skipped), or fails after {@code timeout}. */
    Event next(Duration timeout) throws InterruptedException {
      while (true) {
        Object o = queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (o == null) {
          throw new AssertionError("no SSE event within " + timeout);
        }
        if (o instanceof IOException || o == END) {
          throw new AssertionError("stream ended: " + o);
        }
        Event e = (Event) o;
        if (!e.data().isBlank()) {
          return e;
        }
      }
    }

    /** The next event, priming events included, or fails after {@code timeout}. */
    Event nextAny(Duration timeout) throws InterruptedException {
      Object o = queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (o == null) {
        throw new AssertionError("no SSE event within " + timeout);
      }
      if (o instanceof IOException || o == END) {
        throw new AssertionError("stream ended: " + o);
      }
      return (Event) o;
    }

    /** Waits for the end of the stream, skipping events; fails when nothing ends it in time. */
    void awaitEnd(Duration timeout) throws InterruptedException {
      eventsUntilEnd(timeout);
    }

    /**
     * Waits for the end of the stream and returns the events that came before it; fails when it
     * does not end in time.
     */
    List<Event> eventsUntilEnd(Duration timeout) throws InterruptedException {
      List<Event> seen = new ArrayList<>();
      while (true) {
        Object o = queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (o == null) {
          throw new AssertionError("stream did not end within " + timeout);
        }
        if (o == END || o instanceof IOException) {
          return seen;
        }
        seen.add((Event) o);
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }

    private static final Object END = "END";

    private void pump() {
      try (InputStream body = in) {
        McpWire.Events events = McpWire.Events.of(body);
        for (McpWire.Event e; (e = events.next()) != null; ) {
          queue.add(new Event(e.id(), e.data()));
        }
        queue.add(END);
      } catch (IOException e) {
        queue.add(e);
      }
    }
  }

  /**
   * Sends a raw HTTP/1.1 request (for headers java.net.http refuses to set, such as Host); returns
   * the status.
   */
  static int rawStatus(int port, String requestHead, String body) throws IOException {
    return McpWire.rawStatus(port, requestHead, body);
  }

  private HttpRequest.Builder builder(String... headers) {
    return McpWire.request(uri, Duration.ofSeconds(10), headers);
  }

  private <T> HttpResponse<T> send(HttpRequest.Builder b, HttpResponse.BodyHandler<T> handler) {
    try {
      return http.send(b.build(), handler);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String[] concat(String[] a, String[] b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
