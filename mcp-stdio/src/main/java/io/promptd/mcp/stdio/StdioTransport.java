package io.promptd.mcp.stdio;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.ServerSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Serves an {@link McpServer} over a pair of byte streams, normally the process's stdin and stdout.
 *
 * <p>Each line is one JSON-RPC message (or a batch, where the session's version allows one).
 * Requests that may block (a renderer doing I/O, {@code subscriptions/listen}) run concurrently on
 * virtual threads; requests answered from memory, and {@code initialize}, complete on the reading
 * thread before the next line is read, which keeps their answers in order. Notifications run in
 * arrival order on the reading thread, so a {@code notifications/cancelled} is acted on before
 * later lines are read. A malformed line is answered with -32700 and serving goes on. At end of
 * input, open {@code subscriptions/listen} streams end gracefully, in-flight requests finish, and
 * every response is flushed before {@link #run()} returns.
 */
@Stability(Stability.Tier.STABLE)
public final class StdioTransport {
  /** The default limit on one line: 4 MiB. */
  public static final int DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

  private final McpServer server;
  private final InputStream in;
  private final OutputStream out;
  private final int maxLineBytes;

  private StdioTransport(McpServer server, InputStream in, OutputStream out, int maxLineBytes) {
    this.server = server;
    this.in = in;
    this.out = out;
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Creates a transport.
   *
   * @param server the server to serve
   * @param in where messages arrive, one per line
   * @param out where messages go, one per line; nothing else is ever written to it
   * @param maxLineBytes the longest line accepted; longer lines are skipped and answered with an
   *     error
   */
  public static StdioTransport create(
      McpServer server, InputStream in, OutputStream out, int maxLineBytes) {
    requireNonNull(server, "server");
    requireNonNull(in, "in");
    requireNonNull(out, "out");
    if (maxLineBytes < 1024) {
      throw new IllegalArgumentException("maxLineBytes must be at least 1024, not " + maxLineBytes);
    }
    return new StdioTransport(server, in, out, maxLineBytes);
  }

  /** Creates a transport with the default line limit. */
  public static StdioTransport create(McpServer server, InputStream in, OutputStream out) {
    return create(server, in, out, DEFAULT_MAX_LINE_BYTES);
  }

  /** Serves until end of input, then finishes in-flight requests and flushes their responses. */
  public void run() throws IOException, InterruptedException {
    LineWriter writer = new LineWriter(out);
    try {
      // Notifications (list_changed, a listen stream's) never wait for the client; answers do (see
      // LineWriter).
      // The client answers the server's own requests (elicitation) on the same two streams.
      Outbound outbound =
          Outbound.carryingRequests(message -> writer.offer(MessageCodec.encodeLine(message)));
      ServerSession session = server.openSession(outbound);
      // One client, the user who started the process: a split gives them the same variant every
      // run.
      session.audience("local:" + System.getProperty("user.name", ""));
      try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
        // Before each read, which may block, the answers collected so far go out together.
        LineReader reader = new LineReader(in, maxLineBytes, writer::flushBatch);
        for (LineReader.Line line = reader.next(); line != null; line = reader.next()) {
          if (line.tooLong()) {
            serve(session.receive(MessageCodec.tooLong(maxLineBytes)), outbound, writer, workers);
          } else if (!line.isBlank()) {
            serve(
                session.receive(MessageCodec.decode(line.bytes(), 0, line.length())),
                outbound,
                writer,
                workers);
          }
        }
        session.close();
      }
    } finally {
      writer.finish();
    }
  }

  /**
   * Runs a call where the core says it belongs. The session accepted it on this thread, in arrival
   * order, so a cancellation on a later line finds it even if no worker has started it yet; one
   * answered from memory (and {@code initialize}) is served right here, which keeps answers in
   * order and costs no thread hand-off.
   */
  private static void serve(
      Call call, Outbound outbound, LineWriter writer, ExecutorService workers) {
    if (call.mayBlock()) {
      workers.execute(() -> write(call.run(outbound), writer));
    } else {
      write(call.run(outbound), writer);
    }
  }

  private static void write(Reply reply, LineWriter writer) {
    if (reply.due()) {
      writer.write(reply.encode(true));
    }
  }
}
