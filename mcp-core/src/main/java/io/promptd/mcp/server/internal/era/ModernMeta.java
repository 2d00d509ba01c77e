package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.internal.feature.InputRequired;
import io.promptd.mcp.server.internal.state.RequestContext;
import io.promptd.mcp.server.internal.state.RequestStates;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.RequestHeaders;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/** Reads the per-request {@code _meta} of a modern request into a {@link RequestContext}. */
final class ModernMeta {
  static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  static final String SERVER_INFO = "io.modelcontextprotocol/serverInfo";
  static final String META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";

  private ModernMeta() {}

  /**
   * Reads the request's version, once: from its {@code _meta}, checked against the transport's
   * {@code headers} when it carries some (HTTP; {@code nameField} is the parameter the method's
   * {@code Mcp-Name} repeats, or null), then the client's capabilities and identity, and a retry's
   * {@code requestState} and {@code inputResponses}.
   *
   * @throws McpException when the metadata is missing, disagrees with the headers, or names no
   *     version we speak; when a retry's state fails its checks or its answer is malformed
   */
  static RequestContext parse(
      Request request,
      @Nullable RequestHeaders headers,
      @Nullable String nameField,
      Caller caller,
      RequestStates states) {
    JsonObject meta = request.params().object("_meta").orElse(JsonObject.EMPTY);
    String requested = meta.get(PROTOCOL_VERSION) instanceof JsonString s ? s.value() : null;
    ProtocolVersion version;
    if (requested
        // A required field (2026-07-28, basic: a request missing one is rejected with -32602)
        == null) {
      throw McpException.invalidParams("Invalid params: _meta[\"" + PROTOCOL_VERSION
          + "\"] is required (a string" + " naming the protocol version, such as \""
          + ProtocolVersion.LATEST_MODERN.id() + "\")");
    }
    if (headers != null) {
      version = ModernHeaders.check(request, requested, headers, nameField);
    } else {
      version = ProtocolVersion.of(requested)
          .filter(ProtocolVersion::isModern)
          .orElseThrow(() -> unsupported(requested));
    }
    RequestId id = request.id();
    JsonObject capabilities = meta.object(CLIENT_CAPABILITIES)
        .orElseThrow(() -> McpException.invalidParams("Invalid params: _meta[\""
            + CLIENT_CAPABILITIES + "\"] is required (an object; {} for none)"));
    checkLogLevel(meta);
    return new RequestContext(
        id,
        version,
        capabilities,
        implementation(meta.object(CLIENT_INFO).orElse(null)),
        caller,
        InputRequired.read(request, states, caller));
  }

  /**
   * A {@code logLevel} that names no level is malformed (2026-07-28, logging: the server SHOULD
   * reject it with -32602). The value itself is not echoed: it is the client's text, and the levels
   * are all it needs to know.
   */
  private static void checkLogLevel(JsonObject meta) {
    Json level = meta.get(META_LOG_LEVEL);
    if (level != null
        && !(level instanceof JsonString s && LoggingLevel.of(s.value()).isPresent())) {
      throw McpException.invalidParams("Invalid params: _meta[\"" + META_LOG_LEVEL
          + "\"] must be one of "
          + String.join(
              ", ", Arrays.stream(LoggingLevel.values()).map(LoggingLevel::id).toList())
          + (level instanceof JsonString ? "" : " (a string; got " + level.typeName() + ")"));
    }
  }

  static McpException unsupported(String requested) {
    String hint = ProtocolVersion.of(requested).isPresent()
        ? " (" + requested + " is a legacy version: open a session with initialize to use it)"
        : "";
    return new McpException(
        ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version: " + requested + hint,
        JsonObject.builder()
            .put("supported", JsonArray.ofStrings(ProtocolVersion.supportedIds()))
            .put("requested", requested)
            .build());
  }

  static @Nullable Implementation implementation(@Nullable JsonObject info) {
    if (info == null) {
      return null;
    }
    String name = info.string("name").orElse(null);
    String version = info.string("version").orElse(null);
    return name == null || version == null
        ? null
        : new Implementation(name, info.string("title").orElse(null), version);
  }
}
