package io.promptd.mcp.server;

import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.spi.Wire;
import java.util.Optional;

/**
 * The stateless era (2026-07-28), shared by every request: the features are built once, and a request costs only its
 * own {@link RequestContext} and cancellation handle. Sessions route their modern requests here too, with their own
 * {@link ListenScope}.
 */
final class Stateless implements StatelessEndpoint {
  private static final ProtocolVersion MODERN = ProtocolVersion.V2026_07_28;

  private final McpServer server;
  private final PromptsFeature prompts;
  private final ResourcesFeature resources;
  private final ToolsFeature tools;
  private final ListenScope streams = new ListenScope();

  Stateless(McpServer server) {
    this.server = server;
    this.prompts = new PromptsFeature(server);
    this.resources = new ResourcesFeature(server, null);
    this.tools = new ToolsFeature(server, prompts);
  }

  @Override
  public boolean claims(RequestHeaders headers, io.promptd.mcp.spi.Incoming input) {
    String header = headers.protocolVersion();
    if (header != null) {
      Optional<ProtocolVersion> v = ProtocolVersion.of(header.trim());
      if (v.isEmpty() || v.get().isModern()) {
        return true;
      }
    }
    JsonObject params = switch (input) {
      case Incoming.Single(Request r) -> r.params();
      case Incoming.Single(Notification n) -> n.paramsOrEmpty();
      default -> JsonObject.EMPTY;
    };
    return params.object("_meta").map(m -> m.has(Dispatcher.META_PROTOCOL_VERSION)).orElse(false);
  }

  @Override
  public Call receive(Incoming input, RequestHeaders headers) {
    return receive(input, headers, Caller.UNRESTRICTED);
  }

  @Override
  public Call receive(Incoming input, RequestHeaders headers, Caller caller) {
    return switch (input) {
      case Incoming.Single(Request r) -> request(r, headers, caller);
      case Incoming.Single(Notification n) -> Call.done(Reply.accepted()); // 2026-07-28 defines none over HTTP
      case Incoming.Single s -> Call.done(Reply.rejected(
          Wire.refusal("Bad Request: clients must not send JSON-RPC responses in 2026-07-28"), true, MODERN));
      case Incoming.Batch b -> Call.done(Reply.rejected(new ErrorResponse(
          null, ErrorCodes.INVALID_REQUEST, "Invalid request: JSON-RPC batches are not allowed in 2026-07-28", null),
          true, MODERN));
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
      ctx = ModernMeta.parse(r, headers, caller, server.requestStates());
    } catch (McpException e) {
      // Metadata that is missing (-32602), disagrees with the headers (-32020) or names no version we speak (-32022),
      // and a retry whose requestState or inputResponses fail their checks (-32602), make the request malformed: over
      // HTTP that is 400 Bad Request (2026-07-28, basic: "On HTTP, the response status MUST be 400").
      return Call.done(Reply.of(ErrorResponse.of(r.id(), e), Reply.Hint.REJECTED, MODERN));
    }
    InFlight task = new InFlight();
    boolean mayBlock = Dispatcher.mayBlock(server, r, caller);
    return Responder.call(task, mayBlock, stream -> {
      String client = CompletionLimiter.clientKey(caller, headers.remoteAddress(), "process");
      Response response = Responder.run(r, task, req -> serve(req, ctx, stream, streams, client));
      return response == null ? Reply.cancelled() : Reply.of(response, Responder.statelessHint(response), MODERN);
    });
  }

  /**
   * Serves a modern request whose metadata has been read into {@code ctx}; listen streams join {@code scope}, and
   * completions count against {@code client}'s rate limit.
   */
  JsonObject serve(Request request, RequestContext ctx, Outbound stream, ListenScope scope, String client) {
    Encoder encoder = new Encoder(ctx.version());
    JsonObject.Builder result = switch (request.method()) {
      case "server/discover" -> discover();
      case "prompts/list" -> {
        // A form-first listing depends on the capabilities this request declared, not only on who asks: it must not
        // be shared with clients that cannot show forms (they would send commands without required arguments).
        boolean formFirst = server.elicits() && server.forms().relaxesListings()
            && FormElicitation.supported(ctx.clientCapabilities());
        yield prompts.list(request.params(), encoder, ctx.caller(), formFirst, ctx.clientInfo())
            .put("ttlMs", server.listTtl().toMillis())
            .put("cacheScope", formFirst ? "private" : cacheScope(ctx.caller()));
      }
      case "prompts/get" -> InputRequired.get(prompts, server.requestStates(), server.elicits(), server.forms(),
          request.params(), encoder, ctx);
      case "completion/complete" -> {
        server.completionLimiter().acquire(client);
        yield prompts.complete(request.params(), encoder, ctx.caller()).toBuilder();
      }
      case "subscriptions/listen" -> listen(request, ctx.caller(), stream, scope);
      case "tools/list" -> server.promptsAsTools() ? tools.list(encoder, ctx.caller(), ctx.version())
          .put("ttlMs", server.listTtl().toMillis()).put("cacheScope", cacheScope(ctx.caller()))
          : resources.modern(request, encoder, ctx.caller());
      case "tools/call" -> server.promptsAsTools() ? tools.call(request.params(), encoder, ctx.caller(), ctx.version())
          : resources.modern(request, encoder, ctx.caller());
      default -> resources.modern(request, encoder, ctx.caller());
    };
    JsonObject meta = result.build().object("_meta").orElse(JsonObject.EMPTY).toBuilder()
        .put(Dispatcher.META_SERVER_INFO, encoder.implementation(server.serverInfo()))
        .build();
    if (!result.build().has("resultType")) { // an InputRequiredResult names its own
      result.put("resultType", "complete");
    }
    return result.put("_meta", meta).build();
  }

  private JsonObject.Builder discover() {
    return JsonObject.builder()
        .put("supportedVersions", JsonArray.ofStrings(ProtocolVersion.supportedIds()))
        .put("capabilities", Dispatcher.capabilities(server, MODERN, false))
        .put("instructions", server.instructions())
        .put("ttlMs", server.discoverTtl().toMillis())
        .put("cacheScope", "public");
  }

  /**
   * The {@code cacheScope} of a listing: "public" when every caller sees the same one, "private" when authorization is
   * in force, since the listing then depends on the scopes the caller holds (2026-07-28, caching: a "public" result may
   * be shared between access tokens).
   */
  static String cacheScope(Caller caller) {
    return caller.unrestricted() ? "public" : "private";
  }

  private JsonObject.Builder listen(Request request, Caller caller, Outbound stream, ListenScope scope) {
    JsonObject filter = request.params().object("notifications")
        .orElseThrow(() -> McpException.invalidParams("Invalid params: subscriptions/listen needs \"notifications\" (an object)"));
    boolean wantsPrompts = filter.get("promptsListChanged") instanceof JsonBoolean b && b.value();
    boolean wantsTools = server.promptsAsTools() && filter.get("toolsListChanged") instanceof JsonBoolean t && t.value();
    JsonObject.Builder acknowledged = JsonObject.builder();
    if (wantsPrompts) {
      acknowledged.put("promptsListChanged", true);
    }
    if (wantsTools) {
      acknowledged.put("toolsListChanged", true);
    }
    ResourcesFeature.Filter res = ResourcesFeature.filter(server.resources(), filter, acknowledged);
    Subscription sub = new Subscription(request.id(), stream, wantsPrompts, res.listChanged(), wantsTools, res.uris(),
        caller);
    scope.add(sub);
    try {
      synchronized (sub) {
        server.broadcaster().addSubscription(sub);
        stream.send(new Notification("notifications/subscriptions/acknowledged",
            JsonObject.builder().put("_meta", sub.meta()).put("notifications", acknowledged.build()).build()));
      }
      // A server-side teardown is announced (cancellation: MUST), then answered (subscriptions: SHOULD).
      if (!sub.await() || !sub.sayCancelled()) {
        throw McpException.internal("Subscription stream closed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw McpException.internal("Subscription cancelled"); // suppressed: a cancelled request gets no response
    } finally {
      server.broadcaster().removeSubscription(sub);
      scope.remove(sub);
    }
    return JsonObject.builder().put("_meta", sub.meta());
  }
}
