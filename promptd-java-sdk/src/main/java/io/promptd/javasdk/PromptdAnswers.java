package io.promptd.javasdk;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.wire.PromptResultWire;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A {@code prompts/get} the SDK took, answered by promptd's own server, so that its argument
 * checks, messages and forms are promptd's and not a copy of them. The request goes to promptd's
 * stateless endpoint as the 2026-07-28 request it would be, declaring form elicitation when the
 * SDK's client did; when promptd asks for input, each form goes to the user through the SDK's
 * {@code elicitation/create} and the request is sent again with the answers and promptd's request
 * state, as a 2026-07-28 client's retry would be, until the prompt renders or is refused.
 */
final class PromptdAnswers {
  /** How many forms one {@code prompts/get} may show before the adapter gives up. */
  static final int MAX_ROUNDS = 8;

  private static final String INPUT_REQUIRED = "input_required";
  private static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  private static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  private static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";
  private static final String MODERN = ProtocolVersion.LATEST_MODERN.id();

  /** Shows the user one form through the SDK and returns what the user did with it. */
  @FunctionalInterface
  interface Forms {
    McpSchema.ElicitResult ask(String message, Map<String, Object> requestedSchema);
  }

  private final StatelessEndpoint endpoint;
  /** Ids of the re-sent requests: promptd tracks each in flight by its own. */
  private final AtomicLong ids = new AtomicLong();

  PromptdAnswers(PromptCatalog catalog) {
    this.endpoint = McpServer.builder().prompts(catalog).build().openStateless();
  }

  /**
   * Renders prompt {@code name} as promptd would for a client named {@code client} that can show
   * forms when {@code forms} is given, or cannot when it is null.
   *
   * @throws McpError with promptd's code and message when promptd refuses the request
   */
  McpSchema.GetPromptResult get(
      String name,
      @Nullable Map<String, Object> arguments,
      McpSchema.@Nullable Implementation client,
      @Nullable Forms forms) {
    JsonObject.Builder first = JsonObject.builder().put("name", name);
    if (arguments != null) {
      first.put("arguments", json(arguments));
    }
    JsonObject params = first.build();
    for (int round = 0; round <= MAX_ROUNDS; round++) {
      JsonObject result = call(params, name, client, forms != null);
      if (!INPUT_REQUIRED.equals(result.string("resultType").orElse(null))) {
        GetPromptResult rendered = PromptResultWire.decode(result);
        return SdkSchema.result(rendered);
      }
      if (forms == null || round == MAX_ROUNDS) {
        throw error(
            ErrorCodes.INVALID_PARAMS,
            "prompt '" + name + "': its arguments were still not complete after " + MAX_ROUNDS
                + " forms");
      }
      JsonObject.Builder retry = JsonObject.builder();
      params.members().forEach((k, v) -> {
        if (!k.equals("inputResponses") && !k.equals("requestState")) {
          retry.put(k, v);
        }
      });
      retry.put("inputResponses", answers(result, forms));
      result.string("requestState").ifPresent(state -> retry.put("requestState", state));
      params = retry.build();
    }
    throw new IllegalStateException("unreachable");
  }

  /** Each form of an {@code input_required} result shown, and the user's answers by key. */
  private static JsonObject answers(JsonObject result, Forms forms) {
    JsonObject.Builder answers = JsonObject.builder();
    for (Map.Entry<String, Json> e :
        result.object("inputRequests").orElse(JsonObject.EMPTY).members().entrySet()) {
      JsonObject request = e.getValue() instanceof JsonObject o ? o : JsonObject.EMPTY;
      JsonObject params = request.object("params").orElse(JsonObject.EMPTY);
      if (!Methods.ELICITATION_CREATE.equals(request.string("method").orElse(null))
          || !"form".equals(params.string("mode").orElse("form"))) {
        throw error(
            ErrorCodes.INTERNAL_ERROR, "promptd asked for input the SDK adapter cannot pass on");
      }
      Map<String, Object> schema =
          SdkSchema.map(params.object("requestedSchema").orElse(JsonObject.EMPTY));
      McpSchema.ElicitResult answer =
          forms.ask(params.string("message").orElse(""), schema == null ? Map.of() : schema);
      JsonObject.Builder response =
          JsonObject.builder().put("action", answer.action().name().toLowerCase(Locale.ROOT));
      if (answer.content() != null) {
        response.put("content", json(answer.content()));
      }
      answers.put(e.getKey(), response.build());
    }
    return answers.build();
  }

  /** One request to promptd's stateless endpoint; its result, or its error as the SDK's. */
  private JsonObject call(
      JsonObject params, String name, McpSchema.@Nullable Implementation client, boolean forms) {
    JsonObject.Builder meta = JsonObject.builder()
        .put(PROTOCOL_VERSION, MODERN)
        .put(
            CLIENT_CAPABILITIES,
            forms
                ? JsonObject.builder().put("elicitation", JsonObject.EMPTY).build()
                : JsonObject.EMPTY);
    if (client != null && client.name() != null) {
      meta.put(
          CLIENT_INFO,
          JsonObject.builder()
              .put("name", client.name())
              .put("version", client.version() == null ? "" : client.version())
              .build());
    }
    JsonObject.Builder withMeta = JsonObject.builder();
    params.members().forEach(withMeta::put);
    withMeta.put("_meta", meta.build());
    Request request =
        new Request(RequestId.of(ids.incrementAndGet()), Methods.PROMPTS_GET, withMeta.build());
    RequestHeaders headers =
        new RequestHeaders(MODERN, Methods.PROMPTS_GET, RequestHeaders.encoded(name));
    var response = endpoint
        .receive(new Incoming.Single(request), headers)
        .run(Outbound.discard())
        .response();
    if (response instanceof ResultResponse r) {
      return r.result();
    }
    if (response instanceof ErrorResponse e) {
      McpError.Builder error = McpError.builder(e.code()).message(e.message());
      if (e.data() != null) {
        error.data(plain(e.data()));
      }
      throw error.build();
    }
    throw error(ErrorCodes.INTERNAL_ERROR, "promptd did not answer prompts/get");
  }

  /** The SDK's plain maps, lists, strings, numbers and booleans as promptd's JSON. */
  static Json json(@Nullable Object value) {
    return switch (value) {
      case null -> JsonNull.INSTANCE;
      case String s -> new JsonString(s);
      case Boolean b -> b ? JsonBoolean.TRUE : JsonBoolean.FALSE;
      case Integer i -> JsonNumber.of(i.longValue());
      case Long l -> JsonNumber.of(l);
      case Short s -> JsonNumber.of(s.longValue());
      case Byte b -> JsonNumber.of(b.longValue());
      case BigDecimal d -> JsonNumber.of(d);
      case Number n -> JsonNumber.of(n.doubleValue());
      case Map<?, ?> m -> {
        JsonObject.Builder o = JsonObject.builder();
        m.forEach((k, v) -> o.put(String.valueOf(k), json(v)));
        yield o.build();
      }
      case List<?> l -> {
        List<Json> elements = new ArrayList<>(l.size());
        l.forEach(e -> elements.add(json(e)));
        yield new JsonArray(elements);
      }
      default -> new JsonString(value.toString());
    };
  }

  private static @Nullable Object plain(Json value) {
    Map<String, Object> wrapped =
        SdkSchema.map(JsonObject.builder().put("v", value).build());
    return wrapped == null ? null : wrapped.get("v");
  }

  private static McpError error(int code, String message) {
    return McpError.builder(code).message(message).build();
  }
}
