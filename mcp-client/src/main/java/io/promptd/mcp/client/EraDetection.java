package io.promptd.mcp.client;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.io.IOException;
import java.lang.System.Logger.Level;
import org.jspecify.annotations.Nullable;

/**
 * Tells a modern server from a legacy one, as the 2026-07-28 versioning page describes: a modern
 * result or a recognized modern error (-32020..-32022) means modern; anything else, or silence on
 * stdio, means legacy, and the client falls back to {@code initialize}.
 */
final class EraDetection {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.client");

  private EraDetection() {}

  static ServerIdentity detect(McpClient client) throws IOException {
    Channel channel = client.channel();
    Request probe = client.request(Methods.SERVER_DISCOVER, JsonObject.EMPTY);
    if (channel instanceof HttpChannel http) {
      http.useModern(McpClient.MODERN_VERSION);
    }
    Response answer = null;
    try {
      answer = client.send(probe, client.options().probeTimeout());
    } catch (RequestTimeoutException | HttpStatusException e) {
      LOG.log(
          Level.DEBUG,
          "no modern answer to server/discover ({0}); trying initialize",
          e.getMessage());
    }
    if (answer instanceof ResultResponse r) {
      return modern(r.result());
    }
    if (answer instanceof ErrorResponse e && e.code() <= -32020 && e.code() >= -32022) {
      throw unsupported(e);
    }
    return legacy(client);
  }

  private static ServerIdentity modern(JsonObject result) {
    JsonArray versions = result.array("supportedVersions").orElse(JsonArray.EMPTY);
    if (!versions.elements().contains(new JsonString(McpClient.MODERN_VERSION))) {
      throw new McpException(
          -32022,
          "the server supports " + JsonCodec.write(versions) + ", not " + McpClient.MODERN_VERSION);
    }
    Implementation info = implementation(result
        .object("_meta")
        .flatMap(m -> m.object("io.modelcontextprotocol/serverInfo"))
        .orElse(null));
    return new ServerIdentity(
        true,
        McpClient.MODERN_VERSION,
        info,
        result.object("capabilities").orElse(JsonObject.EMPTY));
  }

  private static McpException unsupported(ErrorResponse e) {
    Json data = e.data();
    String supported = data instanceof JsonObject o && o.get("supported") instanceof JsonArray a
        ? JsonCodec.write(a)
        : "?";
    return new McpException(
        e.code(),
        "the server is modern but refused " + McpClient.MODERN_VERSION + ": " + e.message()
            + " (supported: " + supported + ")",
        e.data());
  }

  /**
   * Starts a legacy session with {@code initialize}: at detection, and again when the server lost
   * the session.
   */
  static ServerIdentity legacy(McpClient client) throws IOException {
    Channel channel = client.channel();
    if (channel instanceof HttpChannel http) {
      http.useLegacy(McpClient.LEGACY_VERSION);
    }
    ServerIdentity legacyShape =
        new ServerIdentity(false, McpClient.LEGACY_VERSION, null, JsonObject.EMPTY);
    JsonObject params = JsonObject.builder()
        .put("protocolVersion", McpClient.LEGACY_VERSION)
        // elicitation: {} means form mode in 2025-06-18 and, for backwards compatibility, in
        // 2025-11-25.
        .put(
            "capabilities",
            client.options().forms() == null
                ? JsonObject.EMPTY
                : JsonObject.builder().put("elicitation", JsonObject.EMPTY).build())
        .put(
            "clientInfo",
            JsonObject.builder()
                .put("name", client.options().clientInfo().name())
                .put("version", client.options().clientInfo().version())
                .build())
        .build();
    Request initialize =
        new Request(client.request(Methods.INITIALIZE, params).id(), Methods.INITIALIZE, params);
    Response answer;
    try {
      answer = client.send(initialize);
    } catch (HttpStatusException e) {
      if (!(channel instanceof HttpChannel http)
          || !(e.status() == 400 || e.status() == 404 || e.status() == 405)) {
        throw e;
      }
      // The spec's backwards compatibility: perhaps a server of the old HTTP+SSE transport
      // (2024-11-05).
      LOG.log(
          Level.DEBUG, "initialize refused ({0}); trying the HTTP+SSE transport", e.getMessage());
      try {
        http.useSseTransport(client.options().probeTimeout());
      } catch (IOException sse) {
        IOException both = new IOException(
            "neither Streamable HTTP nor HTTP+SSE at " + channel.describe()
                + ": initialize was answered " + e.getMessage() + "; a GET for an event stream: "
                + sse.getMessage(),
            e);
        both.addSuppressed(sse);
        throw both;
      }
      answer = client.send(initialize);
    }
    JsonObject result = McpClient.resultOf(answer);
    String version = result
        .string("protocolVersion")
        .orElseThrow(
            () -> new MalformedResultException("initialize result has no protocolVersion"));
    if (ProtocolVersion.of(version).filter(v -> !v.isModern()).isEmpty()) {
      throw new IOException("the server answered initialize with protocol version " + version
          + ", which this client does not speak");
    }
    if (channel instanceof HttpChannel http) {
      http.useLegacy(version);
    }
    channel.notify(new Notification(Methods.NOTIFICATION_INITIALIZED, null));
    return new ServerIdentity(
        false,
        version,
        implementation(result.object("serverInfo").orElse(null)),
        result.object("capabilities").orElse(legacyShape.capabilities()));
  }

  private static @Nullable Implementation implementation(@Nullable JsonObject o) {
    if (o == null || o.string("name").isEmpty()) {
      return null;
    }
    return new Implementation(
        o.string("name").orElseThrow(),
        o.string("title").orElse(null),
        o.string("version").orElse(o.get("version") instanceof JsonNumber n ? n.toString() : "?"));
  }
}
