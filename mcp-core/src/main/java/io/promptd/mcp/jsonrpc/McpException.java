package io.promptd.mcp.jsonrpc;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.Json;
import java.io.Serial;
import org.jspecify.annotations.Nullable;

/**
 * The one exception that becomes a JSON-RPC error response. Its message goes on the wire, so it
 * says what is wrong and where (for example {@code prompt 'review': missing required argument
 * 'file'}) and never carries a stack trace or a class name. Its one subclass,
 * {@link io.promptd.mcp.server.ArgumentsNeeded}, is a -32602 that also says which prompt arguments
 * a user could supply, so that the server can ask for them instead of failing; nothing else extends
 * it.
 */
@Stability(Stability.Tier.STABLE)
public class McpException extends RuntimeException {
  @Serial
  private static final long serialVersionUID = 1L;

  private final int code;
  private final String safeMessage;
  private final transient @Nullable Json data;

  /** Creates an error with a JSON-RPC code, a safe message and optional structured data. */
  public McpException(int code, String message, @Nullable Json data) {
    super(message, null, false, false);
    this.code = code;
    this.safeMessage = message;
    this.data = data;
  }

  /** Creates an error with a JSON-RPC code and a safe message. */
  public McpException(int code, String message) {
    this(code, message, null);
  }

  /** -32602: the parameters are wrong. */
  public static McpException invalidParams(String message) {
    return new McpException(ErrorCodes.INVALID_PARAMS, message);
  }

  /** -32600: the message is not a valid request. */
  public static McpException invalidRequest(String message) {
    return new McpException(ErrorCodes.INVALID_REQUEST, message);
  }

  /** -32601: no such method. */
  public static McpException methodNotFound(String method) {
    return new McpException(ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + method);
  }

  /** -32603: the server failed; {@code message} must be safe to show. */
  public static McpException internal(String message) {
    return new McpException(ErrorCodes.INTERNAL_ERROR, message);
  }

  /** The message, safe to send to the peer. */
  @Override
  public String getMessage() {
    return safeMessage;
  }

  /** The JSON-RPC error code. */
  public int code() {
    return code;
  }

  /** Structured detail for {@code error.data}, or null. */
  public @Nullable Json data() {
    return data;
  }
}
