package io.promptd.javasdk.modern;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A request the SDK took, served by promptd's own server: re-sent as the 2026-07-28 request it was,
 * to promptd's stateless endpoint, on the calling thread. The SDK has already checked the request's
 * metadata; promptd reads the same version, capabilities and client from it, so that what promptd
 * answers — a page, a render, a form, an error — is what it would answer on its own transports. An
 * error comes back as the SDK's {@link McpException} with promptd's code, message and data, never a
 * stack trace.
 */
final class PromptdCalls {
  private static final System.Logger LOG = System.getLogger("io.promptd.javasdk.modern");
  private static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
  private static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
  private static final String CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

  private final StatelessEndpoint endpoint;
  private final McpJsonMapper mapper;
  /** Ids of the re-sent requests: promptd tracks each in flight by its own. */
  private final AtomicLong ids = new AtomicLong();

  PromptdCalls(StatelessEndpoint endpoint, McpJsonMapper mapper) {
    this.endpoint = endpoint;
    this.mapper = mapper;
  }

  /**
   * Serves {@code method} with {@code params} as the SDK request of {@code ctx} would be served by
   * promptd; {@code name} is the primitive it names ({@code Mcp-Name}), or null.
   *
   * @return the result
   * @throws McpException with promptd's error
   */
  JsonObject call(
      McpRequestContext ctx, String method, JsonObject.Builder params, @Nullable String name) {
    params.put("_meta", meta(ctx));
    Request request = new Request(RequestId.of(ids.incrementAndGet()), method, params.build());
    RequestHeaders headers = new RequestHeaders(
        ctx.protocolVersion(), method, name == null ? null : RequestHeaders.encoded(name));
    Reply reply = endpoint.receive(new Incoming.Single(request), headers).run(Outbound.discard());
    Response response = reply.response();
    if (response instanceof ResultResponse r) {
      return r.result();
    }
    if (response instanceof ErrorResponse e) {
      throw new McpException(e.code(), e.message(), e.data() == null ? null : plain(e.data()));
    }
    throw new McpException(ErrorCodes.INTERNAL_ERROR, "promptd did not answer " + method);
  }

  /** {@code value} (an SDK record, a map) as promptd's JSON. */
  Json json(Object value) {
    try {
      return JsonCodec.parse(mapper.writeValueAsString(value));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** promptd's JSON as an SDK record of {@code type}. */
  <T> T read(Json value, Class<T> type) {
    try {
      return mapper.readValue(JsonCodec.write(value), type);
    } catch (IOException e) {
      LOG.log(
          System.Logger.Level.WARNING,
          "promptd-java-sdk-modern: an answer did not fit the SDK's " + type.getName(),
          e);
      throw new McpException(
          ErrorCodes.INTERNAL_ERROR,
          "promptd's answer did not fit the SDK's " + type.getSimpleName());
    }
  }

  /** promptd's JSON as the plain maps, lists and values the SDK's records hold. */
  Object plain(Json value) {
    return read(value, Object.class);
  }

  /** The request's own metadata, as the SDK read it. */
  private JsonObject meta(McpRequestContext ctx) {
    JsonObject.Builder meta = JsonObject.builder().put(PROTOCOL_VERSION, ctx.protocolVersion());
    meta.put(
        CLIENT_CAPABILITIES,
        ctx.clientCapabilities() == null ? JsonObject.EMPTY : json(ctx.clientCapabilities()));
    if (ctx.clientInfo() != null) {
      meta.put(CLIENT_INFO, json(ctx.clientInfo()));
    }
    return meta.build();
  }
}
