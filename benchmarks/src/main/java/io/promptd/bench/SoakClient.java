package io.promptd.bench;

import io.promptd.bench.SoakWire.Failure;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.testing.McpWire;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One reading soak client: a legacy session with its GET stream, or a 2026-07-28
 * {@code subscriptions/listen} stream; either way a request loop beside it ({@code prompts/list},
 * {@code prompts/get} with arguments, {@code completion/complete}) whose every answer is checked
 * against its request.
 *
 * <p>A stream that ends before the soak does is opened again, as a real client's would be: a legacy
 * one with {@code Last-Event-ID}, so that the server replays what it missed (or, when the session
 * is gone, in a new session); a modern one by listening again, which a client follows with a fresh
 * listing, so its acknowledgement counts as having heard of any change meanwhile. Each early end is
 * counted, and its reason kept, for the report.
 */
final class SoakClient {
  private static final String LIST_CHANGED = "notifications/prompts/list_changed";
  private static final String[] LEGACY_VERSIONS = {"2025-11-25", "2025-06-18", "2025-03-26"};
  /** How long a lost stream is tried again before the client gives up on it. */
  private static final Duration REOPEN_FOR = Duration.ofSeconds(30);

  private static final int ENDS_KEPT = 5;

  private final int index;
  private final boolean modern;
  private final boolean idle;
  private final String version;
  private final HttpClient http;
  private final URI uri;
  private final long thinkMillis;
  private final AtomicBoolean stopping;
  private final Consumer<String> failures;
  private final Latencies latencies;
  private final List<Long> heard = new ArrayList<>();
  private final List<String> ends = new ArrayList<>();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong nextId = new AtomicLong(1);
  private final AtomicInteger endCount = new AtomicInteger();
  private final AtomicInteger reinitialized = new AtomicInteger();
  private volatile long openedAt = Long.MAX_VALUE;
  private volatile String streamEnd;
  private volatile InputStream stream;
  private volatile String sessionId;
  /**
   * The legacy stream's last event id (a priming event's included), for {@code Last-Event-ID}; ""
   * before one.
   */
  private volatile String lastEventId = "";

  SoakClient(
      int index,
      boolean modern,
      HttpClient http,
      URI uri,
      long thinkMillis,
      AtomicBoolean stopping,
      Consumer<String> failures,
      Latencies latencies) {
    this(index, modern, false, http, uri, thinkMillis, stopping, failures, latencies);
  }

  /**
   * A client; an idle one ({@code idle}, modern only) holds its {@code subscriptions/listen} stream
   * and sends nothing else.
   */
  SoakClient(
      int index,
      boolean modern,
      boolean idle,
      HttpClient http,
      URI uri,
      long thinkMillis,
      AtomicBoolean stopping,
      Consumer<String> failures,
      Latencies latencies) {
    this.index = index;
    this.modern = modern;
    this.idle = idle && modern;
    this.version = modern ? SoakWire.MODERN : LEGACY_VERSIONS[index % LEGACY_VERSIONS.length];
    this.http = http;
    this.uri = uri;
    this.thinkMillis = thinkMillis;
    this.stopping = stopping;
    this.failures = failures;
    this.latencies = latencies;
  }

  boolean modern() {
    return modern;
  }

  String name() {
    return (idle ? "idle#" : modern ? "modern#" : "legacy(" + version + ")#") + index;
  }

  long requests() {
    return requests.get();
  }

  long failed() {
    return failed.get();
  }

  /**
   * When the stream was first known to be open (nanoTime): response headers (legacy) or the
   * acknowledgement (modern).
   */
  long openedAt() {
    return openedAt;
  }

  /**
   * Why the stream was lost for good (it ended before the soak did and could not be opened again),
   * or null. Kept after the soak stops: the report is made then, and must still see a stream lost
   * during the run.
   */
  String streamEnd() {
    return streamEnd;
  }

  /** How often the stream ended before the soak did. */
  int endCount() {
    return endCount.get();
  }

  /** Why the stream ended early, the first few times. */
  synchronized List<String> ends() {
    return List.copyOf(ends);
  }

  /**
   * How often the session was gone when the stream was opened again, so that a new one was
   * initialized.
   */
  int reinitialized() {
    return reinitialized.get();
  }

  /**
   * The nanoTimes at which {@code list_changed} arrived (or, modern, a listen stream was opened
   * again).
   */
  synchronized List<Long> heard() {
    return List.copyOf(heard);
  }

  /**
   * Opens the stream (reading it on its own virtual thread), then runs the request loop until the
   * soak stops.
   */
  void run() throws InterruptedException {
    McpWire.Events events;
    try {
      events = connect();
    } catch (Failure e) {
      fail(e.getMessage());
      streamEnd = "never opened: " + e.getMessage();
      return;
    }
    openedAt = System.nanoTime();
    Thread.ofVirtual().name("soak-stream-" + index).start(() -> follow(events));
    if (idle) {
      return; // the stream is read on its own thread until the soak closes it
    }
    long seq = 0;
    while (!stopping.get()) {
      long think = thinkMillis / 2 + ThreadLocalRandom.current().nextLong(thinkMillis + 1);
      Thread.sleep(think); // pacing of the load, not a wait for a condition
      if (stopping.get()) {
        break;
      }
      requests.incrementAndGet();
      long started = System.nanoTime();
      try {
        switch ((int) (seq++ % 3)) {
          case 0 -> list();
          case 1 -> get(seq);
          default -> complete();
        }
      } catch (Failure e) {
        fail(e.getMessage());
      }
      latencies.add(System.nanoTime() - started);
    }
  }

  /** Closes the stream (the soak is over). */
  void close() {
    InputStream s = stream;
    if (s != null) {
      try {
        s.close();
      } catch (IOException e) {
        // closing a stream the server may have closed already
      }
    }
  }

  private void fail(String message) {
    failed.incrementAndGet();
    failures.accept(name() + ": " + message);
  }

  private String[] headers(String method, String name) {
    if (modern) {
      return name == null
          ? new String[] {"MCP-Protocol-Version", version, "Mcp-Method", method}
          : new String[] {"MCP-Protocol-Version", version, "Mcp-Method", method, "Mcp-Name", name};
    }
    return new String[] {"Mcp-Session-Id", sessionId, "MCP-Protocol-Version", version};
  }

  private String body(long id, String method, String members) {
    return modern
        ? SoakWire.modern(id, method, members)
        : SoakWire.request(id, method, "{" + members + "}");
  }

  /**
   * Reads the stream, then, each time it ends before the soak does, opens it again (trying for
   * {@link #REOPEN_FOR}) and reads on.
   */
  private void follow(McpWire.Events first) {
    McpWire.Events events = first;
    long subscription = listenId;
    while (true) {
      String why = read(events, subscription);
      if (stopping.get()) {
        return;
      }
      endCount.incrementAndGet();
      synchronized (this) {
        if (ends.size() < ENDS_KEPT) {
          ends.add(why + (modern ? "" : " (last event id '" + lastEventId + "')"));
        }
      }
      long deadline = System.nanoTime() + REOPEN_FOR.toNanos();
      events = null;
      String last = why;
      while (events == null && !stopping.get() && System.nanoTime() < deadline) {
        try {
          events = connect();
          subscription = listenId;
          if (modern) {
            synchronized (this) {
              heard.add(System.nanoTime()); // listening again, the client lists afresh
            }
          }
        } catch (Failure e) {
          last = e.getMessage();
          try {
            Thread.sleep(200); // pacing the attempts to reopen, with a deadline
          } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      if (events == null) {
        if (!stopping.get()) {
          streamEnd = why + "; not reopened: " + last;
        }
        return;
      }
    }
  }

  private volatile long listenId;

  /**
   * Opens the stream: a legacy session's GET (with {@code Last-Event-ID} once there is one; in a
   * new session when the server no longer knows this one), or a {@code subscriptions/listen} stream
   * up to its acknowledgement.
   */
  private McpWire.Events connect() throws Failure, InterruptedException {
    HttpResponse<InputStream> r;
    try {
      if (modern) {
        long id = nextId.getAndIncrement();
        listenId = id;
        r = http.send(
            SoakWire.post(
                    uri,
                    body(
                        id,
                        "subscriptions/listen",
                        "\"notifications\":{\"promptsListChanged\":true}"),
                    headers("subscriptions/listen", null))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
      } else {
        if (sessionId == null) {
          initialize();
        }
        r = get();
        if (r.statusCode() == 404) {
          // The session is gone (expired, evicted): a client starts a new one, and lists afresh.
          r.body().close();
          reinitialized.incrementAndGet();
          lastEventId = "";
          initialize();
          r = get();
        }
      }
    } catch (IOException e) {
      throw new Failure("opening the stream: " + e);
    }
    stream = r.body();
    if (r.statusCode() != 200
        || !r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream")) {
      close();
      throw new Failure("opening the stream: HTTP " + r.statusCode() + " "
          + r.headers().firstValue("Content-Type").orElse(""));
    }
    McpWire.Events events = McpWire.Events.of(r.body());
    if (modern) {
      try {
        String ack = events.nextData();
        JsonObject o = ack == null ? null : SoakWire.object(ack, "listen");
        if (o == null
            || !"notifications/subscriptions/acknowledged"
                .equals(o.string("method").orElse(""))) {
          throw new Failure("listen: the first message is not the acknowledgement: " + ack);
        }
      } catch (IOException e) {
        throw new Failure("listen: " + e);
      }
    }
    return events;
  }

  private HttpResponse<InputStream> get() throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri)
        .header("Accept", "text/event-stream")
        .header("Mcp-Session-Id", sessionId)
        .header("MCP-Protocol-Version", version);
    String resumeFrom = lastEventId;
    if (!resumeFrom.isEmpty()) {
      b.header("Last-Event-ID", resumeFrom);
    }
    return http.send(b.GET().build(), HttpResponse.BodyHandlers.ofInputStream());
  }

  private void initialize() throws Failure, InterruptedException {
    HttpResponse<String> r;
    try {
      r = http.send(
          SoakWire.post(
                  uri,
                  SoakWire.request(
                      0,
                      "initialize",
                      "{\"protocolVersion\":\"" + version
                          + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"soak\",\"version\":\"1\"}}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new Failure(
            "initialize: HTTP " + r.statusCode() + " " + SoakWire.abbreviate(r.body()));
      }
      sessionId = r.headers()
          .firstValue("Mcp-Session-Id")
          .orElseThrow(() -> new Failure("initialize: no Mcp-Session-Id"));
      HttpResponse<String> n = http.send(
          SoakWire.post(
                  uri,
                  "{\"jsonrpc\":\"2.0\",\"method\":" + "\"notifications/initialized\"}",
                  headers("", null))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      if (n.statusCode() != 202) {
        throw new Failure("notifications/initialized: HTTP " + n.statusCode());
      }
    } catch (IOException e) {
      throw new Failure("initialize: " + e);
    }
  }

  /** Reads the stream until it ends; says why it did. */
  private String read(McpWire.Events events, long subscription) {
    try {
      for (McpWire.Event e; (e = events.next()) != null; ) {
        if (!e.id().isEmpty()) {
          lastEventId = e.id();
        }
        if (e.data().isEmpty()) {
          continue; // a priming event
        }
        JsonObject o = SoakWire.object(e.data(), "stream");
        if (!LIST_CHANGED.equals(o.string("method").orElse(""))) {
          continue;
        }
        if (modern) {
          long sub = o.object("params")
              .flatMap(p -> p.object("_meta"))
              .map(m -> m.get("io.modelcontextprotocol/subscriptionId") instanceof JsonNumber n
                  ? n.longValue()
                  : -1L)
              .orElse(-1L);
          if (sub != subscription) {
            fail("list_changed with subscription id " + sub + ", expected " + subscription);
          }
        }
        synchronized (this) {
          heard.add(System.nanoTime());
        }
      }
      return "the server ended the stream";
    } catch (IOException | Failure e) {
      return e.toString();
    }
  }

  private void list() throws Failure, InterruptedException {
    long id = nextId.getAndIncrement();
    JsonObject result = SoakWire.call(
        http, uri, id, "prompts/list", body(id, "prompts/list", ""), headers("prompts/list", null));
    if (!SoakWire.containsName(result, "translate") || !SoakWire.containsName(result, "soak")) {
      throw new Failure(
          "prompts/list: translate or soak missing: " + SoakWire.abbreviate(result.toString()));
    }
  }

  private void get(long seq) throws Failure, InterruptedException {
    long id = nextId.getAndIncrement();
    String token = "soak-" + index + "-" + seq;
    String language = seq % 2 == 0 ? "French" : "German";
    JsonObject result = SoakWire.call(
        http,
        uri,
        id,
        "prompts/get",
        body(
            id,
            "prompts/get",
            "\"name\":\"translate\",\"arguments\":{\"text\":\"" + token + "\",\"language\":\""
                + language + "\"}"),
        headers("prompts/get", "translate"));
    String text = SoakWire.firstText(result);
    if (!text.contains(token) || !text.contains("into " + language)) {
      throw new Failure("prompts/get: the text lacks " + token + " or " + language + ": "
          + SoakWire.abbreviate(text));
    }
  }

  private void complete() throws Failure, InterruptedException {
    long id = nextId.getAndIncrement();
    JsonObject result = SoakWire.call(
        http,
        uri,
        id,
        "completion/complete",
        body(
            id,
            "completion/complete",
            "\"ref\":{\"type\":\"ref/prompt\",\"name\":\"translate\"},\"argument\":{\"name\":\"language\","
                + "\"value\":\"Fr\"}"),
        headers("completion/complete", null));
    if (!SoakWire.containsValue(result, "French")) {
      throw new Failure(
          "completion/complete: French missing: " + SoakWire.abbreviate(result.toString()));
    }
  }
}
