package io.promptd.cli;

import io.promptd.mcp.http.RequestEvent;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonObject;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The access log: one JSON line per HTTP request on the MCP endpoint, such as
 * {@code {"time":"2026-11-23T20:00:00.123Z","era":"modern","http":"POST","method":"prompts/get","prompt":"review",
 * "outcome":"ok","status":200,"error":null,"duration_ms":1.234,"subject":null}}. It says what was
 * asked and how it went, never what was sent: no argument values, no headers, no tokens. Lines are
 * queued and written by one thread, so the request never waits for the disk; when the writer falls
 * 10,000 lines behind, lines are dropped (and the drop is reported once).
 */
final class AccessLog implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.cli");
  private static final int MAX_NAME = 200;
  /** Queued by {@link #close()}: the writer stops there. */
  private static final byte[] END = new byte[0];

  private final BlockingQueue<byte[]> lines = new ArrayBlockingQueue<>(10_000);
  private final OutputStream out;
  private final boolean closeOut;
  private final Thread writer;
  private final AtomicLong dropped = new AtomicLong();

  private AccessLog(OutputStream out, boolean closeOut) {
    this.out = out;
    this.closeOut = closeOut;
    this.writer = Thread.ofPlatform().daemon().name("promptd-access-log").start(this::drain);
  }

  /**
   * Opens the log: {@code "-"} for stderr, else a file that lines are appended to (created if
   * missing).
   *
   * @throws IOException when the file cannot be opened
   */
  static AccessLog open(String target) throws IOException {
    if (target.equals("-")) {
      return new AccessLog(System.err, false);
    }
    OutputStream file = Files.newOutputStream(
        Path.of(target),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND,
        StandardOpenOption.WRITE);
    return new AccessLog(new BufferedOutputStream(file, 64 * 1024), true);
  }

  /** Queues the line for a finished request; never blocks. */
  void record(RequestEvent e) {
    if (!lines.offer(line(e)) && dropped.getAndIncrement() == 0) {
      LOG.log(Level.WARNING, "the access log cannot keep up; lines are being dropped");
    }
  }

  /** The JSON line for a request, ending with a newline. */
  static byte[] line(RequestEvent e) {
    JsonObject o = JsonObject.builder()
        .put("time", e.time().truncatedTo(ChronoUnit.MILLIS).toString())
        .put("era", e.era().name().toLowerCase(Locale.ROOT))
        .put("http", e.httpMethod())
        .put("method", orNull(e.method()))
        .put("prompt", orNull(e.prompt()))
        .put("outcome", e.outcome().name().toLowerCase(Locale.ROOT))
        .put("status", e.status())
        .put(
            "error",
            e.errorCode().isPresent() ? Json.of(e.errorCode().getAsInt()) : JsonNull.INSTANCE)
        .put(
            "duration_ms",
            Json.of(BigDecimal.valueOf(e.duration().toNanos(), 6)
                .setScale(3, RoundingMode.HALF_UP)
                .doubleValue()))
        .put("subject", orNull(e.subject()))
        .put(
            "transport",
            e.transport() == RequestEvent.Transport.HTTP_SSE ? "sse" : "streamable-http")
        .build();
    return JsonCodec.writeBytes(o, true);
  }

  /**
   * A client-chosen name, cut short so that one request cannot write a huge line; JSON null when
   * absent.
   */
  private static Json orNull(@Nullable String value) {
    if (value == null) {
      return JsonNull.INSTANCE;
    }
    return Json.of(value.length() > MAX_NAME ? value.substring(0, MAX_NAME) + "…" : value);
  }

  private void drain() {
    try {
      while (true) {
        byte[] line = lines.take();
        if (line.length == 0) { // END: a real line is never empty
          break;
        }
        out.write(line);
        if (lines.isEmpty()) {
          out.flush();
        }
      }
      out.flush();
    } catch (IOException e) {
      LOG.log(Level.WARNING, "the access log could not be written: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Writes what is queued, then closes the file (stderr stays open). */
  @Override
  public void close() {
    try {
      lines.put(END);
      writer.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (closeOut) {
        try {
          out.close();
        } catch (IOException e) {
          LOG.log(Level.WARNING, "the access log could not be closed: " + e.getMessage());
        }
      }
    }
  }
}
