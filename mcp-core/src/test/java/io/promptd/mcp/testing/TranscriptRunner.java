package io.promptd.mcp.testing;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.ServerSession;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jspecify.annotations.Nullable;

/**
 * Plays request lines into one {@link ServerSession} the way a stdio transport would, one at a
 * time, and records every line the server emits. Each emitted line is also checked with the
 * {@link SchemaHarness} of the version it was sent under: the modern version for a request naming a
 * version in its {@code _meta}, else the session's negotiated version, else (before
 * {@code initialize}) every legacy version, since the client's era is not yet known — except an
 * error without id, which follows the newest revision's rule then.
 */
public final class TranscriptRunner {
  private static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
  private static final List<ProtocolVersion> LEGACY = List.of(
      ProtocolVersion.V2024_11_05,
      ProtocolVersion.V2025_03_26,
      ProtocolVersion.V2025_06_18,
      ProtocolVersion.V2025_11_25);

  private final ServerSession session;
  private final ConcurrentLinkedQueue<Message> pushed = new ConcurrentLinkedQueue<>();
  private final Map<RequestId, String> methods = new HashMap<>();
  private final List<String> emitted = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();

  private TranscriptRunner(McpServer server) {
    this.session = server.openSession(pushed::add);
  }

  /**
   * The result of a run.
   *
   * @param lines every line the server emitted, in order
   * @param problems schema problems, each naming the line it was found in
   */
  public record Result(List<String> lines, List<String> problems) {}

  /** Plays {@code requests} into a new session of {@code server}. */
  public static Result run(McpServer server, List<String> requests) {
    TranscriptRunner runner = new TranscriptRunner(server);
    try {
      for (String line : requests) {
        runner.play(line);
      }
    } finally {
      runner.session.close();
    }
    return new Result(List.copyOf(runner.emitted), List.copyOf(runner.problems));
  }

  private void play(String line) {
    Outbound stream = pushed::add;
    List<String> out = new ArrayList<>();
    Incoming incoming = MessageCodec.decode(line);
    remember(incoming);
    // The same contract a transport uses: hand the input over, run the call, write the reply if one
    // is due.
    Reply reply = session.receive(incoming).run(stream);
    if (reply.due()) {
      out.add(new String(reply.encode(false), StandardCharsets.UTF_8));
    }
    for (Message m; (m = pushed.poll()) != null; ) {
      out.add(MessageCodec.encode(m));
    }
    List<ProtocolVersion> versions = versionsFor(line);
    for (String emittedLine : out) {
      emitted.add(emittedLine);
      // Before initialize no version is in force, and an error without a readable id follows the
      // newest revision's rule (no id; see Wire): the older schemas, which require an id, do not
      // apply to it.
      boolean idless = session.negotiatedVersion().isEmpty()
          && emittedLine.startsWith("{\"jsonrpc\":\"2.0\",\"error\"");
      for (ProtocolVersion v : idless ? List.of(ProtocolVersion.LATEST_LEGACY) : versions) {
        check(SchemaHarness.of(v), emittedLine);
      }
    }
  }

  /**
   * Notes which method each request id asks for, so that results can be checked against the right
   * schema type.
   */
  private void remember(Incoming incoming) {
    List<Incoming> items = incoming instanceof Incoming.Batch b ? b.items() : List.of(incoming);
    for (Incoming item : items) {
      if (item instanceof Incoming.Single(Request r)) {
        methods.put(r.id(), r.method());
      }
    }
  }

  private void check(SchemaHarness harness, String line) {
    Json json = JsonCodec.parse(line);
    List<Json> messages = json instanceof JsonArray a ? a.elements() : List.of(json);
    if (json instanceof JsonArray && !harness.defines("JSONRPCBatchResponse")) {
      problems.add(harness.version().id() + " defines no batches, yet the server sent: " + line);
    }
    for (Json message : messages) {
      String text = JsonCodec.write(message);
      for (String p : harness.check(text, answering(message))) {
        problems.add(harness.version().id() + ": " + p + "\n    in: " + text);
      }
    }
  }

  private @Nullable String answering(Json message) {
    if (message instanceof JsonObject o && o.has("result") && o.get("id") instanceof Json id) {
      return methods.get(new RequestId(id));
    }
    return null;
  }

  private List<ProtocolVersion> versionsFor(String line) {
    try {
      if (JsonCodec.parse(line) instanceof JsonObject o
          && o.object("params")
              .flatMap(p -> p.object("_meta"))
              .map(m -> m.has(META_VERSION))
              .orElse(false)) {
        return List.of(ProtocolVersion.V2026_07_28);
      }
    } catch (JsonException e) {
      // unparsable input: answered under whatever era the session is in
    }
    return session.negotiatedVersion().map(List::of).orElse(LEGACY);
  }
}
