package io.promptd.mcp.testing;

import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;

/** Builds messages from JSON text, the way a transport would decode them. */
public final class Wire {
  /** The {@code _meta} of a modern 2026-07-28 request, as JSON text. */
  public static final String MODERN_META =
      "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  private Wire() {}

  /** Decodes one request. */
  public static Request request(String json) {
    return (Request) decode(json);
  }

  /** Decodes one notification. */
  public static Notification notification(String json) {
    return (Notification) decode(json);
  }

  /**
   * A modern request: {@code params} (JSON object text without braces, may be empty) plus the
   * modern {@code _meta}.
   */
  public static Request modern(Object id, String method, String params) {
    String sep = params.isEmpty() ? "" : ",";
    return request("{\"jsonrpc\":\"2.0\",\"id\":" + idJson(id) + ",\"method\":\"" + method
        + "\",\"params\":{" + params + sep + "\"_meta\":" + MODERN_META + "}}");
  }

  /** A legacy request (no {@code _meta}). */
  public static Request legacy(Object id, String method, String params) {
    return request("{\"jsonrpc\":\"2.0\",\"id\":" + idJson(id) + ",\"method\":\"" + method
        + "\",\"params\":{" + params + "}}");
  }

  /** An {@code initialize} request for {@code version}. */
  public static Request initialize(String version) {
    return legacy(
        "init",
        "initialize",
        "\"protocolVersion\":\"" + version
            + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}");
  }

  /** {@code notifications/cancelled} for request {@code id}. */
  public static Notification cancelled(Object id) {
    return notification(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
            + idJson(id) + ",\"reason\":\"test\"}}");
  }

  private static String idJson(Object id) {
    return id instanceof String s ? '"' + s + '"' : id.toString();
  }

  private static Message decode(String json) {
    if (MessageCodec.decode(json) instanceof Incoming.Single(Message m)) {
      return m;
    }
    throw new IllegalArgumentException("not one valid message: " + json);
  }
}
