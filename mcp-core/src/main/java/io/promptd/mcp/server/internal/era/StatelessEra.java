package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.internal.method.MethodCall;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.notify.ListenScope;
import io.promptd.mcp.server.internal.state.CompletionLimiter;
import io.promptd.mcp.server.internal.state.RequestContext;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.spi.Wire;
import io.promptd.mcp.wire.Encoder;

/**
 * The stateless era (2026-07-28) adapter, shared by every request of one transport: it reads a
 * request's {@code _meta}, serves it from the {@link MethodTable} and adds what every modern result
 * carries ({@code resultType}, the server's identity). A request costs only its own
 * {@link RequestContext} and cancellation handle. Legacy sessions finish their modern requests with
 * {@link #complete} too, with their own {@link ListenScope}.
 */
public final class StatelessEra implements StatelessEndpoint {
  private static final ProtocolVersion MODERN = ProtocolVersion.LATEST_MODERN;

  private final ServerContext context;
  private final MethodTable methods;
  private final ListenScope streams = new ListenScope();
  private final ModernRules rules;

  public StatelessEra(ServerContext context, MethodTable methods) {
    this.context = context;
    this.methods = methods;
    this.rules = new ModernRules(context.elicits);
  }

  @Override
  public boolean claims(RequestHeaders headers, Incoming input) {
    return Admissions.claims(headers, input);
  }

  @Override
  public Call receive(Incoming input, RequestHeaders headers) {
    return receive(input, headers, Caller.UNRESTRICTED);
  }

  @Override
  public Call receive(Incoming input, RequestHeaders headers, Caller caller) {
    return switch (input) {
      case Incoming.Single(Request r) -> request(r, headers, caller);
      case Incoming.Single(Notification n) ->
        Call.done(Reply.accepted()); // 2026-07-28 defines none over HTTP
      case Incoming.Single s ->
        Call.done(Reply.rejected(
            Wire.refusal("Bad Request: clients must not send JSON-RPC responses in 2026-07-28"),
            true,
            MODERN));
      case Incoming.Batch b ->
        Call.done(Reply.rejected(
            new ErrorResponse(
                null,
                ErrorCodes.INVALID_REQUEST,
                "Invalid request: JSON-RPC batches are not allowed in 2026-07-28",
                null),
            true,
            MODERN));
      case Incoming.Invalid invalid -> Call.done(Reply.rejected(invalid.error(), true, MODERN));
    };
  }

  @Override
  public void endStreams() {
    streams.endAll();
  }

  private Call request(Request r, RequestHeaders headers, Caller caller) {
    RequestContext ctx;
    try {
      ctx = ModernMeta.parse(
          r, headers, methods.nameField(r.method()), caller, context.requestStates);
    } catch (McpException e) {
      // Metadata that is missing (-32602), disagrees with the headers (-32020) or names no version
      // we speak (-32022), and a retry whose requestState or inputResponses fail their checks
      // (-32602), make the request malformed: over HTTP that is 400 Bad Request (2026-07-28, basic:
      // "On HTTP, the response status MUST be 400").
      return Call.done(Reply.of(ErrorResponse.of(r.id(), e), Reply.Hint.REJECTED, MODERN));
    }
    InFlight task = new InFlight();
    boolean mayBlock = methods.mayBlock(r, caller, () -> false); // asks by answering, never waits
    return Responder.call(task, mayBlock, stream -> {
      String client = CompletionLimiter.clientKey(caller, headers.remoteAddress(), "process");
      Response response = Responder.run(
          r,
          task,
          req -> complete(
              context,
              methods.serve(
                  new MethodCall(req, ctx, rules, stream, null, streams, client, client))));
      return response == null
          ? Reply.cancelled()
          : Reply.of(response, Responder.statelessHint(response), MODERN);
    });
  }

  /**
   * Adds what every modern result carries: the server's identity in {@code _meta}, and
   * {@code resultType}.
   */
  static JsonObject complete(ServerContext context, JsonObject.Builder result) {
    JsonObject built = result.build();
    JsonObject meta = built.object("_meta").orElse(JsonObject.EMPTY).toBuilder()
        .put(ModernMeta.SERVER_INFO, new Encoder(MODERN).implementation(context.serverInfo))
        .build();
    if (!built.has("resultType")) { // an InputRequiredResult names its own
      result.put("resultType", "complete");
    }
    return result.put("_meta", meta).build();
  }
}
