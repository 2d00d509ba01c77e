package io.promptd.mcp.http;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Checks the 2026-07-28 request metadata headers against the body: {@code MCP-Protocol-Version}, {@code Mcp-Method}
 * and, for the methods that name something, {@code Mcp-Name} (Base64 sentinel values decoded first).
 */
final class ModernHeaders {
  static final String METHOD_HEADER = "Mcp-Method";
  static final String NAME_HEADER = "Mcp-Name";
  private static final Set<String> NAMED = Set.of("tools/call", "prompts/get", "resources/read");
  private static final String SENTINEL_START = "=?base64?";
  private static final String SENTINEL_END = "?=";

  private ModernHeaders() {}

  /** The error a request deserves for its headers (HeaderMismatch or UnsupportedProtocolVersion), or null. */
  static @Nullable ErrorResponse check(
      Request r, @Nullable String version, @Nullable String method, @Nullable String name) {
    String bodyVersion = Eras.bodyVersion(new io.promptd.mcp.jsonrpc.Incoming.Single(r));
    if (version == null) {
      return mismatch(r, "MCP-Protocol-Version header is required");
    }
    if (!safe(version) || !version.equals(bodyVersion)) {
      return mismatch(r, "MCP-Protocol-Version header value '" + printable(version)
          + "' does not match body value '" + bodyVersion + "'");
    }
    if (ProtocolVersion.of(version).filter(ProtocolVersion::isModern).isEmpty()) {
      return Eras.unsupported(r, version);
    }
    if (method == null) {
      return mismatch(r, "Mcp-Method header is required");
    }
    if (!safe(method) || !method.equals(r.method())) {
      return mismatch(r, "Mcp-Method header value '" + printable(method) + "' does not match body value '"
          + r.method() + "'");
    }
    if (!NAMED.contains(r.method())) {
      return null;
    }
    String field = r.method().equals("resources/read") ? "uri" : "name";
    String bodyName = r.params().string(field).orElse(null);
    if (name == null) {
      return mismatch(r, "Mcp-Name header is required for " + r.method());
    }
    String decoded = safe(name) ? decode(name) : null;
    if (decoded == null) {
      return mismatch(r, "Mcp-Name header value is malformed");
    }
    if (!decoded.equals(bodyName)) {
      return mismatch(r, "Mcp-Name header value '" + printable(decoded) + "' does not match body value '"
          + bodyName + "'");
    }
    return null;
  }

  /** A header value decoded from the {@code =?base64?...?=} sentinel form, or as is; null when malformed. */
  static @Nullable String decode(String value) {
    if (!(value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END)
        && value.length() >= SENTINEL_START.length() + SENTINEL_END.length())) {
      return value;
    }
    String b64 = value.substring(SENTINEL_START.length(), value.length() - SENTINEL_END.length());
    try {
      byte[] bytes = Base64.getDecoder().decode(b64);
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (IllegalArgumentException | CharacterCodingException e) {
      return null;
    }
  }

  /** Whether a header value holds only visible ASCII, space and tab, as RFC 9110 field values should. */
  private static boolean safe(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(c == '\t' || (c >= 0x20 && c <= 0x7e))) {
        return false;
      }
    }
    return true;
  }

  private static String printable(String value) {
    String cut = value.length() > 200 ? value.substring(0, 200) + "..." : value;
    return cut.replaceAll("[^\\x20-\\x7e]", "?");
  }

  private static ErrorResponse mismatch(Request r, String why) {
    return new ErrorResponse(r.id(), ErrorCodes.HEADER_MISMATCH, "Header mismatch: " + why, null);
  }
}
