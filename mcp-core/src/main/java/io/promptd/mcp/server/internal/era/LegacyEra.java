package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.internal.method.Capabilities;
import io.promptd.mcp.server.internal.method.MethodCall;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.state.LegacyState;
import io.promptd.mcp.server.internal.state.RequestContext;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.wire.Encoder;

/**
 * The legacy era adapter of one session: {@code initialize} opens the session; after it, requests
 * are served from the {@link MethodTable} under the negotiated version. A request whose
 * {@code _meta} names a protocol version is served as a modern one ({@link StatelessEra#complete});
 * before {@code initialize} only {@code ping} is answered.
 */
final class LegacyEra {
  private final ServerContext context;
  private final MethodTable methods;
  private final Capabilities capabilities;
  private final SessionImpl session;
  /** The rules of the session's requests that name a modern version in {@code _meta}. */
  private final ModernRules modernRules;

  LegacyEra(
      ServerContext context, MethodTable methods, Capabilities capabilities, SessionImpl session) {
    this.context = context;
    this.methods = methods;
    this.capabilities = capabilities;
    this.session = session;
    this.modernRules = new ModernRules(context.elicits);
  }

  JsonObject dispatch(Request request, Outbound stream, Caller caller) {
    JsonObject meta = request.params().object("_meta").orElse(JsonObject.EMPTY);
    if (request.method().equals(Methods.INITIALIZE)) {
      return initialize(request);
    }
    if (meta.has(ModernMeta.PROTOCOL_VERSION)) {
      RequestContext modern = ModernMeta.parse(request, null, null, caller, context.requestStates);
      return StatelessEra.complete(
          context,
          methods.serve(new MethodCall(
              request,
              modern,
              modernRules,
              stream,
              session,
              session.listens(),
              session.clientKey(),
              session.audience())));
    }
    LegacyState state = session.legacy();
    if (state != null) {
      RequestContext legacy = new RequestContext(
          request.id(), state.version, state.clientCapabilities, state.clientInfo, caller, null);
      return methods
          .serve(new MethodCall(
              request,
              legacy,
              LegacyRules.INSTANCE,
              stream,
              session,
              session.listens(),
              session.clientKey(),
              session.audience()))
          .build();
    }
    if (request.method().equals(Methods.PING)) {
      return JsonObject.EMPTY;
    }
    if (!methods.knows(request.method())) {
      throw McpException.methodNotFound(request.method());
    }
    // Neither era's request: 2026-07-28 requires the version in _meta (a request without it is
    // malformed: -32602), and a legacy client must initialize first. -32022 would need a version
    // the client asked for, and it named none.
    throw McpException.invalidParams(
        "Invalid params: _meta[\"" + ModernMeta.PROTOCOL_VERSION + "\"] is required (a"
            + " string naming the protocol version, such as \"" + ProtocolVersion.LATEST_MODERN.id()
            + "\"); a legacy client"
            + " sends initialize first");
  }

  private JsonObject initialize(Request request) {
    if (session.legacy() != null) {
      throw McpException.invalidRequest("Invalid request: this session is already initialized");
    }
    JsonObject params = request.params();
    String requested = params
        .string("protocolVersion")
        .orElseThrow(() -> McpException.invalidParams(
            "Invalid params: initialize needs \"protocolVersion\" (a string)"));
    ProtocolVersion version = ProtocolVersion.of(requested)
        .filter(v -> !v.isModern())
        .orElse(ProtocolVersion.LATEST_LEGACY);
    JsonObject capabilities = params.object("capabilities").orElse(JsonObject.EMPTY);
    Implementation clientInfo =
        ModernMeta.implementation(params.object("clientInfo").orElse(null));
    LegacyState state = new LegacyState(version, capabilities, clientInfo);
    Encoder encoder = new Encoder(version);
    JsonObject result = JsonObject.builder()
        .put("protocolVersion", version.id())
        .put("capabilities", this.capabilities.of(version, true))
        .put("serverInfo", encoder.implementation(context.serverInfo))
        .put("instructions", context.instructions)
        .build();
    if (!session.initialized(state)) { // a concurrent initialize won
      throw McpException.invalidRequest("Invalid request: this session is already initialized");
    }
    return result;
  }
}
