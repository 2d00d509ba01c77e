package io.promptd.mcp.http;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Incoming;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** How one endpoint tells the eras apart, and the HTTP status each era gives a JSON-RPC answer. */
final class Eras {
  static final String PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";
  static final String SESSION_HEADER = "Mcp-Session-Id";
  static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

  private Eras() {}

  /**
   * Whether a POST belongs to the modern era: its {@code MCP-Protocol-Version} header names a version that is not a
   * legacy one (an unknown future version included, so that the client gets a modern "unsupported version" error), or
   * its body carries the modern per-request {@code _meta}.
   */
  static boolean isModern(@Nullable String versionHeader, Incoming body) {
    if (versionHeader != null) {
      Optional<ProtocolVersion> v = ProtocolVersion.of(versionHeader.trim());
      if (v.isEmpty() || v.get().isModern()) {
        return true;
      }
    }
    return bodyVersion(body) != null;
  }

  /** The protocol version a modern body names in {@code params._meta}, or null. */
  static @Nullable String bodyVersion(Incoming body) {
    JsonObject params = switch (body) {
      case Incoming.Single(Request r) -> r.params();
      case Incoming.Single(Notification n) -> n.paramsOrEmpty();
      default -> JsonObject.EMPTY;
    };
    return params.object("_meta").flatMap(m -> m.string(META_PROTOCOL_VERSION)).orElse(null);
  }

  /** Whether a legacy request's {@code MCP-Protocol-Version} header is absent or a legacy version we speak. */
  static boolean legacyVersionOk(@Nullable String versionHeader) {
    return versionHeader == null
        || ProtocolVersion.of(versionHeader.trim()).filter(v -> !v.isModern()).isPresent();
  }

  /** The status a modern answer travels with: 404 for an unknown method, 400 for the errors the spec lists. */
  static int modernStatus(Response response) {
    if (!(response instanceof ErrorResponse e)) {
      return 200;
    }
    return switch (e.code()) {
      case ErrorCodes.METHOD_NOT_FOUND -> 404;
      case ErrorCodes.HEADER_MISMATCH, ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
          ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY, ErrorCodes.INVALID_REQUEST, ErrorCodes.PARSE_ERROR -> 400;
      default -> 200;
    };
  }

  /** The modern "unsupported protocol version" error, listing what we speak. */
  static ErrorResponse unsupported(@Nullable Request request, String requested) {
    JsonObject data = JsonObject.builder()
        .put("supported", JsonArray.ofStrings(ProtocolVersion.supportedIds()))
        .put("requested", requested)
        .build();
    return new ErrorResponse(request == null ? null : request.id(), ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version: " + requested, data);
  }
}
