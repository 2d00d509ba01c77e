package io.promptd.javasdk.spring;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.wire.PromptResultWire;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The SDK's records, as a Spring AI method returns them, made promptd's through their JSON: the
 * SDK's mapper writes them as the protocol does, promptd's wire decoder reads them back, so every
 * content type and {@code _meta} crosses as it is.
 */
final class SdkJson {
  private final McpJsonMapper mapper;

  SdkJson(McpJsonMapper mapper) {
    this.mapper = mapper;
  }

  /** The result as promptd's record. */
  GetPromptResult result(McpSchema.GetPromptResult result) {
    return PromptResultWire.decode((JsonObject) parse(result));
  }

  /** A {@code _meta} map as promptd's JSON object. */
  JsonObject object(Map<String, Object> map) {
    return (JsonObject) parse(map);
  }

  private Json parse(Object value) {
    try {
      return JsonCodec.parse(mapper.writeValueAsString(value));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
