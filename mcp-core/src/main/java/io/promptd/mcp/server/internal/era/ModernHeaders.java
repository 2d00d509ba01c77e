package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.RequestHeaders;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.jspecify.annotations.Nullable;

/**
 * Checks the 2026-07-28 request metadata a transport carries beside the body against it:
 * {@code MCP-Protocol-Version}, {@code Mcp-Method} and, for the methods that name something,
 * {@code Mcp-Name} (Base64 sentinel values decoded first).
 */
final class ModernHeaders {
  private static final String SENTINEL_START = "=?base64?";
  private static final String SENTINEL_END = "?=";

  private ModernHeaders() {}

  /**
   * Checks the headers against the body, whose {@code _meta} version is {@code bodyVersion} (null
   * when absent or not a string), and returns the version both name; {@code nameField} is the
   * parameter {@code Mcp-Name} repeats for this method (from its row in the method table), or null
   * when the method names nothing.
   *
   * @throws McpException HeaderMismatch or UnsupportedProtocolVersion
   */
  static ProtocolVersion check(
      Request r, @Nullable String bodyVersion, RequestHeaders headers, @Nullable String nameField) {
    String version = headers.protocolVersion();
    if (version == null) {
      throw mismatch("MCP-Protocol-Version header is required");
    }
    if (!safe(version) || !version.equals(bodyVersion)) {
      throw mismatch("MCP-Protocol-Version header value '" + printable(version)
          + "' does not match body value '" + bodyVersion + "'");
    }
    ProtocolVersion parsed = ProtocolVersion.of(version)
        .filter(ProtocolVersion::isModern)
        .orElseThrow(() -> ModernMeta.unsupported(version));
    String method = headers.method();
    if (method == null) {
      throw mismatch("Mcp-Method header is required");
    }
    if (!safe(method) || !method.equals(r.method())) {
      throw mismatch("Mcp-Method header value '" + printable(method)
          + "' does not match body value '" + r.method() + "'");
    }
    if (nameField != null) {
      checkName(r, nameField, headers.name());
    }
    return parsed;
  }

  private static void checkName(Request r, String field, @Nullable String name) {
    String bodyName = r.params().string(field).orElse(null);
    if (name == null) {
      throw mismatch("Mcp-Name header is required for " + r.method());
    }
    String decoded = safe(name) ? decode(name) : null;
    if (decoded == null) {
      throw mismatch("Mcp-Name header value is malformed");
    }
    if (!decoded.equals(bodyName)) {
      throw mismatch("Mcp-Name header value '" + printable(decoded)
          + "' does not match body value '" + bodyName + "'");
    }
  }

  /**
   * A header value decoded from the {@code =?base64?...?=} sentinel form, or as is; null when
   * malformed.
   */
  static @Nullable String decode(String value) {
    if (!(value.startsWith(SENTINEL_START)
        && value.endsWith(SENTINEL_END)
        && value.length() >= SENTINEL_START.length() + SENTINEL_END.length())) {
      return value;
    }
    String b64 = value.substring(SENTINEL_START.length(), value.length() - SENTINEL_END.length());
    try {
      byte[] bytes = Base64.getDecoder().decode(b64);
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (IllegalArgumentException | CharacterCodingException e) {
      return null;
    }
  }

  /**
   * Whether a header value holds only visible ASCII, space and tab, as RFC 9110 field values
   * should.
   */
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

  private static McpException mismatch(String why) {
    return new McpException(ErrorCodes.HEADER_MISMATCH, "Header mismatch: " + why, null);
  }
}
