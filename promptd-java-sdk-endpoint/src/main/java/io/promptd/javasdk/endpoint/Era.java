package io.promptd.javasdk.endpoint;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.protocol.ProtocolVersion;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Which of the SDK's two stacks a POST belongs to. The headers decide first (a known
 * {@code MCP-Protocol-Version}, then an {@code Mcp-Session-Id}), then the message:
 * {@code initialize} and batches are legacy; {@code server/discover} and any request whose
 * {@code _meta} names a protocol version are 2026-07-28. Anything else has no era to be served in.
 */
enum Era {
  LEGACY,
  MODERN;

  static final String VERSION_HEADER = "MCP-Protocol-Version";
  static final String SESSION_HEADER = "Mcp-Session-Id";
  private static final String META_VERSION = "io.modelcontextprotocol/protocolVersion";

  /** The era of a POST with these headers and this (parsed) body. */
  static Era of(@Nullable String version, @Nullable String session, Json body) throws Refusal {
    if (version != null) {
      Optional<ProtocolVersion> known = ProtocolVersion.of(version.trim());
      if (known.isPresent()) {
        return known.get().isModern() ? MODERN : LEGACY;
      }
    }
    if (session != null && !session.isBlank()) {
      return LEGACY;
    }
    if (body instanceof JsonArray) {
      return LEGACY; // batches: only 2025-03-26 had them, and only after initialize
    }
    if (!(body instanceof JsonObject message)) {
      throw new Refusal(
          HttpServletResponse.SC_BAD_REQUEST,
          ErrorCodes.INVALID_REQUEST,
          "the body is not a JSON-RPC message (a JSON object)",
          null);
    }
    String method = message.string("method").orElse("");
    if (method.equals("initialize")) {
      return LEGACY;
    }
    if (method.equals("server/discover") || namesAVersion(message)) {
      return MODERN;
    }
    throw new Refusal(
        HttpServletResponse.SC_BAD_REQUEST,
        ErrorCodes.INVALID_REQUEST,
        "no protocol era for this request: start a session with initialize (2025-11-25 and earlier),"
            + " or send MCP-Protocol-Version: 2026-07-28 with the version in params._meta",
        message.get("id"));
  }

  /**
   * The era of a request other than a POST: a session's ({@code GET} stream, {@code DELETE}) unless
   * it names a 2026-07-28 version and no session.
   */
  static Era ofOtherVerb(@Nullable String version, @Nullable String session) {
    boolean modern = version != null
        && ProtocolVersion.of(version.trim()).map(ProtocolVersion::isModern).orElse(false);
    return modern && (session == null || session.isBlank()) ? MODERN : LEGACY;
  }

  private static boolean namesAVersion(JsonObject message) {
    return message
        .object("params")
        .flatMap(params -> params.object("_meta"))
        .map(meta -> meta.has(META_VERSION))
        .orElse(false);
  }
}
