package io.promptd.mcp.server.internal.state;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Caller;
import org.jspecify.annotations.Nullable;

/**
 * What the server knows about one request: its era and version, and the client's capabilities and
 * identity — from the legacy session's {@code initialize}, or from the request's own {@code _meta}
 * in the modern era.
 *
 * @param id the request id
 * @param version the protocol version the request is served under
 * @param clientCapabilities the client's declared capabilities
 * @param clientInfo the client's self-reported identity, or null
 * @param caller who sent the request, as the transport authenticated it
 * @param retry a 2026-07-28 retry's checked {@code requestState} and answer
 *     ({@code InputRequired}), or null
 */
public record RequestContext(
    RequestId id,
    ProtocolVersion version,
    JsonObject clientCapabilities,
    @Nullable Implementation clientInfo,
    Caller caller,
    @Nullable Retry retry) {
  /** Checks the fields. */
  public RequestContext {
    requireNonNull(id, "id");
    requireNonNull(version, "version");
    requireNonNull(clientCapabilities, "clientCapabilities");
    requireNonNull(caller, "caller");
  }

  /** Whether the request is served statelessly under the modern era. */
  public boolean modern() {
    return version.isModern();
  }

  /**
   * A retry's checked state and the user's answer to the form, if it carries one.
   *
   * @param state the checked {@code requestState}
   * @param answer the user's answer in {@code inputResponses}, or null
   */
  public record Retry(RequestStates.State state, FormElicitation.@Nullable Answer answer) {}
}
