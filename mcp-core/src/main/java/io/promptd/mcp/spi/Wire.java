package io.promptd.mcp.spi;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The server's wire form of messages, and the one null-id policy: an error answering input whose id
 * could not be read carries {@code "id": null} under a version up to 2025-06-18 (its schema
 * requires an id and admits no form for an unreadable one, so JSON-RPC 2.0's null decides), and no
 * {@code id} at all from 2025-11-25 on (the schema makes the id optional and forbids null). Before
 * a version is in force — no {@code initialize} yet, a transport refusal — the newest revision's
 * rule applies: no id.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class Wire {
  /**
   * JSON-RPC code for transport-level refusals (wrong origin, no session, ...): the server-error
   * range.
   */
  public static final int TRANSPORT_ERROR = -32000;

  private Wire() {}

  /**
   * Whether an error with an unreadable id is written {@code "id": null} (true) or without id under
   * {@code inForce}.
   */
  public static boolean nullId(@Nullable ProtocolVersion inForce) {
    return inForce != null && !inForce.atLeast(ProtocolVersion.V2025_11_25);
  }

  /** The JSON form of a message sent under {@code inForce} (null: no version negotiated yet). */
  public static JsonObject toJson(Message message, @Nullable ProtocolVersion inForce) {
    JsonObject json = MessageCodec.toJson(message);
    return message instanceof ErrorResponse e && e.id() == null && !nullId(inForce)
        ? json.toBuilder().remove("id").build()
        : json;
  }

  /** A message as UTF-8 JSON, with a trailing {@code '\n'} when {@code newline}. */
  public static byte[] encode(Message message, @Nullable ProtocolVersion inForce, boolean newline) {
    return JsonCodec.writeBytes(toJson(message, inForce), newline);
  }

  /**
   * Messages as one UTF-8 JSON array (a batch reply), with a trailing {@code '\n'} when
   * {@code newline}.
   */
  public static byte[] encodeBatch(
      List<? extends Message> messages, @Nullable ProtocolVersion inForce, boolean newline) {
    List<Json> items = new ArrayList<>(messages.size());
    for (Message m : messages) {
      items.add(toJson(m, inForce));
    }
    return JsonCodec.writeBytes(new JsonArray(items), newline);
  }

  /**
   * The body of a transport-level refusal (a foreign origin, no session, a body too large): a
   * JSON-RPC error without id, since the refusal answers no message the core has read.
   */
  public static ErrorResponse refusal(String message) {
    return new ErrorResponse(null, TRANSPORT_ERROR, message, null);
  }
}
