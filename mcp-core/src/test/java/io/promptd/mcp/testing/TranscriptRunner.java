package io.promptd.mcp.testing;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Incoming;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.MessageCodec;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.Outbound;
import io.promptd.mcp.server.ServerSession;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jspecify.annotations.Nullable;

/**
 * Plays request lines into one {@link ServerSession} the way a stdio transport would, one at a time, and records every
 * line the server emits. Each emitted line is also checked with the {@link SchemaHarness} of the version it was sent
 * under: the modern version for a request naming a version in its {@code _meta}, else the session's negotiated version,
 * else (before {@code initialize}) every legacy version, since the client's era is not yet known.
 */
public final class TranscriptRunner {
  private static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";
  private static final List<ProtocolVersion> LEGACY =
      List.of(ProtocolVersion.V2024_11_05, ProtocolVersion.V2025_03_26, ProtocolVersion.V2025_06_18,
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
    switch (MessageCodec.decode(line)) {
      case Incoming.Single(Request r) -> {
        methods.put(r.id(), r.method());
        Response response = session.handle(r, stream);
        if (response != null) {
          out.add(MessageCodec.encode(response));
        }
      }
      case Incoming.Single(Notification n) -> session.handle(n);
      case Incoming.Single s -> { } // a response from the client: nothing to answer
      case Incoming.Invalid invalid -> {
        if (invalid.answerable()) {
          out.add(MessageCodec.encode(invalid.error()));
        }
      }
      case Incoming.Batch batch -> {
        for (Incoming item : batch.items()) {
          if (item instanceof Incoming.Single(Request r)) {
            methods.put(r.id(), r.method());
          }
        }
        ServerSession.BatchReply reply = session.handle(batch, stream);
        if (reply.rejection() != null) {
          out.add(MessageCodec.encode(reply.rejection()));
        } else if (!reply.responses().isEmpty()) {
          List<Json> array = new ArrayList<>();
          reply.responses().forEach(r -> array.add(MessageCodec.toJson(r)));
          out.add(JsonCodec.write(new JsonArray(array)));
        }
      }
    }
    for (Message m; (m = pushed.poll()) != null; ) {
      out.add(MessageCodec.encode(m));
    }
    List<ProtocolVersion> versions = versionsFor(line);
    for (String emittedLine : out) {
      emitted.add(emittedLine);
      for (ProtocolVersion v : versions) {
        check(SchemaHarness.of(v), emittedLine);
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
          && o.object("params").flatMap(p -> p.object("_meta")).map(m -> m.has(META_VERSION)).orElse(false)) {
        return List.of(ProtocolVersion.V2026_07_28);
      }
    } catch (JsonException e) {
      // unparsable input: answered under whatever era the session is in
    }
    return session.negotiatedVersion().map(List::of).orElse(LEGACY);
  }
}
