package io.promptd.mcp.server;

import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.Arrays;
import java.util.Set;

/**
 * Routes a session's request to its handler under the right era: modern (to the server's shared {@link Stateless}
 * handler) when its {@code _meta} names a protocol version, legacy when the session has been initialized, and
 * otherwise only {@code initialize} and {@code ping}.
 */
final class Dispatcher {
  static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  static final String META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  static final String META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  static final String META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

  private static final Set<String> LEGACY_METHODS =
      Set.of("initialize", "ping", "prompts/list", "prompts/get", "completion/complete", "logging/setLevel");
  // 2026-07-28 removed ping and logging/setLevel.
  private static final Set<String> MODERN_METHODS =
      Set.of("server/discover", "prompts/list", "prompts/get", "completion/complete", "subscriptions/listen");

  private final McpServer server;
  private final SessionImpl session;
  private final PromptsFeature prompts;
  private final ResourcesFeature resources;
  private final ToolsFeature tools;

  Dispatcher(McpServer server, SessionImpl session) {
    this.server = server;
    this.session = session;
    this.prompts = new PromptsFeature(server);
    this.resources = new ResourcesFeature(server, session);
    this.tools = new ToolsFeature(server, prompts);
  }

  /**
   * Whether serving {@code request} may block: a listen stream always does; so may a resource read (providers may do
   * I/O) and any renderer or completer that does not declare otherwise. Everything else is answered from memory.
   */
  static boolean mayBlock(McpServer server, Request request, Caller caller) {
    JsonObject params = request.params();
    // A prompt the caller may not see is answered like an unknown one, from memory: never on another thread.
    return switch (request.method()) {
      case "subscriptions/listen", "resources/read" -> true;
      case "tools/call" -> server.promptsAsTools(); // get_prompt renders, and a renderer may block
      case "prompts/get" -> params.string("name").flatMap(server.prompts()::get)
          .filter(d -> d.visibleTo(caller))
          .map(d -> d.renderer().mayBlock()).orElse(false);
      // A resource template's variables come from its provider, which may do I/O, as resources/read may.
      case "completion/complete" -> params.object("ref").map(r -> r.string("type").orElse("").equals("ref/resource")
          ? server.resources() != null
          : r.string("name").flatMap(server.prompts()::get)
              .filter(d -> d.visibleTo(caller))
              .map(d -> d.completer() != null && d.completer().mayBlock()).orElse(false))
          .orElse(false);
      default -> false;
    };
  }

  JsonObject dispatch(Request request, Outbound stream, Caller caller) {
    JsonObject meta = request.params().object("_meta").orElse(JsonObject.EMPTY);
    if (request.method().equals("initialize")) {
      return initialize(request);
    }
    if (meta.has(META_PROTOCOL_VERSION)) {
      return server.stateless().serve(
          request, ModernMeta.parse(request, null, caller, server.requestStates()), stream, session.listens(), session.clientKey());
    }
    LegacyState state = session.legacy();
    if (state != null) {
      return legacy(request, state, caller, stream);
    }
    if (request.method().equals("ping")) {
      return JsonObject.EMPTY;
    }
    if (!LEGACY_METHODS.contains(request.method()) && !MODERN_METHODS.contains(request.method())
        && !ResourcesFeature.LEGACY_METHODS.contains(request.method())
        && !(server.promptsAsTools() && request.method().startsWith("tools/"))) {
      throw McpException.methodNotFound(request.method());
    }
    // Neither era's request: 2026-07-28 requires the version in _meta (a request without it is malformed: -32602), and
    // a legacy client must initialize first. -32022 would need a version the client asked for, and it named none.
    throw McpException.invalidParams("Invalid params: _meta[\"" + META_PROTOCOL_VERSION + "\"] is required (a"
        + " string naming the protocol version, such as \"" + ProtocolVersion.V2026_07_28.id() + "\"); a legacy client"
        + " sends initialize first");
  }

  private JsonObject legacy(Request request, LegacyState state, Caller caller, Outbound stream) {
    Encoder encoder = new Encoder(state.version);
    return switch (request.method()) {
      case "ping" -> JsonObject.EMPTY;
      case "prompts/list" -> prompts.list(request.params(), encoder, caller,
          session.mayElicit() && server.forms().relaxesListings(), state.clientInfo).build();
      case "prompts/get" -> session.canElicit(stream)
          ? LegacyElicitation.get(prompts, session, stream, state.version, request.params(), encoder, caller)
          : prompts.get(request.params(), encoder, caller, null, state.clientInfo);
      case "completion/complete" -> {
        server.completionLimiter().acquire(session.clientKey());
        yield prompts.complete(request.params(), encoder, caller);
      }
      case "logging/setLevel" -> setLevel(request.params(), state);
      case "tools/list" -> server.promptsAsTools() ? tools.list(encoder, caller, state.version).build()
          : resources.legacy(request, encoder, caller);
      case "tools/call" -> server.promptsAsTools() ? tools.call(request.params(), encoder, caller, state.version).build()
          : resources.legacy(request, encoder, caller);
      default -> resources.legacy(request, encoder, caller);
    };
  }

  private JsonObject initialize(Request request) {
    if (session.legacy() != null) {
      throw McpException.invalidRequest("Invalid request: this session is already initialized");
    }
    JsonObject params = request.params();
    String requested = params.string("protocolVersion")
        .orElseThrow(() -> McpException.invalidParams("Invalid params: initialize needs \"protocolVersion\" (a string)"));
    ProtocolVersion version = ProtocolVersion.of(requested)
        .filter(v -> !v.isModern())
        .orElse(ProtocolVersion.LATEST_LEGACY);
    JsonObject capabilities = params.object("capabilities").orElse(JsonObject.EMPTY);
    Implementation clientInfo = ModernMeta.implementation(params.object("clientInfo").orElse(null));
    LegacyState state = new LegacyState(version, capabilities, clientInfo);
    Encoder encoder = new Encoder(version);
    JsonObject result = JsonObject.builder()
        .put("protocolVersion", version.id())
        .put("capabilities", capabilities(server, version, true))
        .put("serverInfo", encoder.implementation(server.serverInfo()))
        .put("instructions", server.instructions())
        .build();
    if (!session.initialized(state)) { // a concurrent initialize won
      throw McpException.invalidRequest("Invalid request: this session is already initialized");
    }
    return result;
  }

  static JsonObject capabilities(McpServer server, ProtocolVersion version, boolean logging) {
    JsonObject.Builder b = JsonObject.builder();
    b.put("prompts", JsonObject.builder().put("listChanged", true).build());
    if (server.resources() != null) {
      b.put("resources", JsonObject.builder().put("subscribe", true).put("listChanged", true).build());
    }
    if (version.atLeast(ProtocolVersion.V2025_03_26)) {
      b.put("completions", JsonObject.EMPTY);
    }
    if (server.promptsAsTools()) {
      b.put("tools", JsonObject.builder().put("listChanged", true).build());
    }
    if (logging) {
      b.put("logging", JsonObject.EMPTY);
    }
    return b.build();
  }

  private static JsonObject setLevel(JsonObject params, LegacyState state) {
    state.logLevel = LoggingLevel.of(params.string("level").orElse("")).orElseThrow(() ->
        McpException.invalidParams("Invalid params: \"level\" must be one of " + String.join(", ",
            Arrays.stream(LoggingLevel.values()).map(LoggingLevel::id).toList())));
    return JsonObject.EMPTY;
  }

  /** This session's resources feature, which holds its subscriptions. */
  ResourcesFeature resources() {
    return resources;
  }

  void close() {
    resources.close();
  }
}
