package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Validates what the server sends against the official JSON schema of its era. */
final class Schemas {
  private static final Map<String, JsonSchema> CACHE = new ConcurrentHashMap<>();
  private static final Map<String, JsonObject> ROOTS = new ConcurrentHashMap<>();
  private static final Map<String, String> RESULTS = Map.ofEntries(
      Map.entry("initialize", "InitializeResult"),
      Map.entry("ping", "EmptyResult"),
      Map.entry("server/discover", "DiscoverResult"),
      Map.entry("prompts/list", "ListPromptsResult"),
      Map.entry("prompts/get", "GetPromptResult"),
      Map.entry("completion/complete", "CompleteResult"),
      Map.entry("resources/list", "ListResourcesResult"),
      Map.entry("resources/read", "ReadResourceResult"),
      Map.entry("resources/templates/list", "ListResourceTemplatesResult"),
      Map.entry("subscriptions/listen", "SubscriptionsListenResult"));

  private Schemas() {}

  /** Checks one JSON-RPC response (or a batch of them) to a request for {@code method}. */
  static void checkResponse(String version, String method, String body) {
    Json json = JsonCodec.parse(body);
    if (json instanceof JsonArray batch) {
      for (Json element : batch.elements()) {
        assertValid(version, "JSONRPCMessage", JsonCodec.write(element));
      }
      return;
    }
    JsonObject message = (JsonObject) json;
    if (message.has("error")) {
      // A session of 2025-06-18 or older answers input with an unreadable id with JSON-RPC 2.0's
      // "id": null (the null-id policy in io.promptd.mcp.spi.Wire), which no schema types; checked
      // without it, as SchemaHarness does. Older schemas require an id there, so the null stands in
      // as 0 to check the rest.
      JsonObject checked = message.get("id") == JsonNull.INSTANCE
          ? message.toBuilder().put("id", 0).build()
          : message;
      assertValid(
          version,
          defines(version, "JSONRPCErrorResponse") ? "JSONRPCErrorResponse" : "JSONRPCError",
          JsonCodec.write(checked));
      return;
    }
    assertValid(
        version,
        defines(version, "JSONRPCResultResponse") ? "JSONRPCResultResponse" : "JSONRPCResponse",
        body);
    String type = RESULTS.get(method);
    if (type != null) {
      assertValid(version, type, JsonCodec.write(message.object("result").orElseThrow()));
    }
  }

  /** Checks a JSON document against one type of the era's schema. */
  static void assertValid(String version, String type, String json) {
    JsonSchema schema = CACHE.computeIfAbsent(version + "#" + type, k -> load(version, type));
    assertThat(schema.validate(json, InputFormat.JSON))
        .as("%s %s: %s", version, type, json)
        .isEmpty();
  }

  /**
   * Whether {@code version}'s schema defines {@code type} (2025-11-25 renamed the JSON-RPC
   * envelopes).
   */
  static boolean defines(String version, String type) {
    JsonObject root = ROOTS.computeIfAbsent(version, Schemas::root);
    return root.object("$defs")
        .or(() -> root.object("definitions"))
        .orElseThrow()
        .has(type);
  }

  private static JsonObject root(String version) {
    try {
      Path dir = Path.of(System.getProperty("mcp.spec.dir", "../third_party/mcp-spec"));
      return (JsonObject)
          JsonCodec.parse(Files.readString(dir.resolve(version).resolve("schema.json")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonSchema load(String version, String type) {
    JsonObject root = ROOTS.computeIfAbsent(version, Schemas::root);
    boolean draft2020 = root.has("$defs");
    String wrapped = JsonCodec.write(root.toBuilder()
        .put("$ref", (draft2020 ? "#/$defs/" : "#/definitions/") + type)
        .build());
    return JsonSchemaFactory.getInstance(
            draft2020 ? SpecVersion.VersionFlag.V202012 : SpecVersion.VersionFlag.V7)
        .getSchema(wrapped);
  }
}
