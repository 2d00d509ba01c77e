package io.promptd.mcp.stdio;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Incoming;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.MessageCodec;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.Outbound;
import io.promptd.mcp.server.ServerSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Serves an {@link McpServer} over a pair of byte streams, normally the process's stdin and stdout.
 *
 * <p>Each line is one JSON-RPC message (or a batch, where the session's version allows one). Requests that may block
 * (a renderer doing I/O, {@code subscriptions/listen}) run concurrently on virtual threads; requests answered from
 * memory, and {@code initialize}, complete on the reading thread before the next line is read, which keeps their
 * answers in order. Notifications run in arrival order on the reading thread, so a {@code notifications/cancelled}
 * is acted on before later lines are read. A malformed line is answered with -32700 and serving goes on. At end of
 * input, open {@code subscriptions/listen} streams end gracefully, in-flight requests finish, and every response is
 * flushed before {@link #run()} returns.
 */
public final class StdioTransport {
  /** The default limit on one line: 4 MiB. */
  public static final int DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.stdio");

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
   * @param maxLineBytes the longest line accepted; longer lines are skipped and answered with an error
   */
  public static StdioTransport create(McpServer server, InputStream in, OutputStream out, int maxLineBytes) {
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
      Outbound outbound = message -> writer.write(MessageCodec.encodeLine(message));
      ServerSession session = server.openSession(outbound);
      try (ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor()) {
        // Before each read, which may block, the answers collected so far go out together.
        LineReader reader = new LineReader(in, maxLineBytes, writer::flushBatch);
        for (LineReader.Line line = reader.next(); line != null; line = reader.next()) {
          if (line.tooLong()) {
            outbound.send(tooLong());
          } else if (!line.isBlank()) {
            Incoming incoming = MessageCodec.decode(line.bytes(), 0, line.length());
            serve(incoming, session, outbound, writer, workers);
          }
        }
        session.close();
      }
    } finally {
      writer.finish();
    }
  }

  private static void serve(
      Incoming incoming, ServerSession session, Outbound outbound, LineWriter writer, ExecutorService workers) {
    switch (incoming) {
      case Incoming.Single(Request request) when request.method().equals("initialize") -> {
        // Served before the next line is read, so a client that pipelines requests right behind its initialize
        // (a transcript piped into the server) finds the session initialized.
        Response response = session.handle(request, outbound);
        if (response != null) {
          outbound.send(response);
        }
      }
      case Incoming.Single(Request request) -> {
        // Accepted here, in arrival order, so that a cancellation on a later line finds it even if no worker has
        // started it yet.
        ServerSession.Accepted accepted = session.accept(request);
        if (accepted.mayBlock()) {
          workers.execute(() -> answer(accepted, outbound));
        } else {
          // Answered from memory: serving it here keeps answers in order and costs no thread hand-off.
          answer(accepted, outbound);
        }
      }
      case Incoming.Single(Notification notification) -> session.handle(notification);
      case Incoming.Single(Message response) ->
          LOG.log(Level.DEBUG, "ignoring a response: this server sends no requests");
      case Incoming.Invalid invalid -> {
        if (invalid.answerable()) {
          outbound.send(invalid.error());
        }
      }
      case Incoming.Batch batch -> workers.execute(() -> answerBatch(batch, session, outbound, writer));
    }
  }

  private static void answer(ServerSession.Accepted accepted, Outbound outbound) {
    Response response = accepted.run(outbound);
    if (response != null) {
      outbound.send(response);
    }
  }

  private static void answerBatch(Incoming.Batch batch, ServerSession session, Outbound outbound, LineWriter writer) {
    ServerSession.BatchReply reply = session.handle(batch, outbound);
    Response rejection = reply.rejection();
    if (rejection != null) {
      outbound.send(rejection);
    } else if (!reply.responses().isEmpty()) {
      List<Json> items = new ArrayList<>(reply.responses().size());
      for (Response r : reply.responses()) {
        items.add(MessageCodec.toJson(r));
      }
      writer.write(JsonCodec.writeBytes(new JsonArray(items), true));
    }
  }

  private ErrorResponse tooLong() {
    return new ErrorResponse(
        null,
        ErrorCodes.INVALID_REQUEST,
        "Invalid request: message longer than " + maxLineBytes + " bytes was skipped",
        null);
  }
}
