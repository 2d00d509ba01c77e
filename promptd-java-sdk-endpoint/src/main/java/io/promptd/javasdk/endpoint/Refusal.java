package io.promptd.javasdk.endpoint;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonNull;
import org.jspecify.annotations.Nullable;

/**
 * A request the servlet answers itself, before either SDK transport sees it: an HTTP status and the
 * JSON-RPC error its body carries. Never holds a cause: what reaches the wire is the message.
 */
final class Refusal extends Exception {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final int code;
  private final transient Json id;

  Refusal(int status, int code, String message, @Nullable Json id) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.id = id == null ? JsonNull.INSTANCE : id;
  }

  int status() {
    return status;
  }

  int code() {
    return code;
  }

  Json id() {
    return id;
  }
}
