package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.SpecDir;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Resources in every era: results validated against that era's official schema, fields gated by
 * version.
 */
class ResourcesSchemaTest {
  private static final Map<String, JsonSchema> SCHEMAS = new ConcurrentHashMap<>();

  private final Fixture provider = new Fixture();
  private final McpServer server = McpServer.builder().resources(provider).build();

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
  void legacyResultsMatchTheirEraSchema(String version) throws Exception {
    BlockingQueue<Message> out = new LinkedBlockingQueue<>();
    ServerSession session = server.openSession(out::add);
    JsonObject init = result(session.handle(
        request(
            1,
            "initialize",
            "{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"),
        out::add));
    assertThat(JsonCodec.write(init.object("capabilities").orElseThrow()))
        .contains("\"resources\":{\"subscribe\":true,\"listChanged\":true}");
    JsonObject list = valid(
        version,
        "ListResourcesResult",
        session.handle(request(2, "resources/list", "{}"), out::add));
    String resource =
        JsonCodec.write(list.array("resources").orElseThrow().elements().get(0));
    assertThat(resource.contains("\"title\""))
        .isEqualTo(!version.startsWith("2024") && !version.equals("2025-03-26"));
    assertThat(resource.contains("\"icons\"")).isEqualTo(version.equals("2025-11-25"));
    assertThat(resource).contains("\"annotations\":{\"audience\":[\"user\"],\"priority\":0.5");
    valid(
        version,
        "ListResourceTemplatesResult",
        session.handle(request(3, "resources/templates/list", "{}"), out::add));
    valid(
        version,
        "ReadResourceResult",
        session.handle(request(4, "resources/read", "{\"uri\":\"test://a\"}"), out::add));
    valid(
        version,
        "ReadResourceResult",
        session.handle(request(5, "resources/read", "{\"uri\":\"test://b\"}"), out::add));
    Response missing =
        session.handle(request(6, "resources/read", "{\"uri\":\"test://none\"}"), out::add);
    assertThat(((ErrorResponse) missing).code()).isEqualTo(-32002);
    result(session.handle(request(7, "resources/subscribe", "{\"uri\":\"test://a\"}"), out::add));
    provider.listener.get().updated("test://a");
    Message updated = out.poll(5, TimeUnit.SECONDS);
    assertThat(updated)
        .isEqualTo(new Notification(
            "notifications/resources/updated",
            JsonObject.builder().put("uri", "test://a").build()));
    validMessage(version, "ResourceUpdatedNotification", updated);
    provider.listener.get().listChanged();
    validMessage(version, "ResourceListChangedNotification", out.poll(5, TimeUnit.SECONDS));
    session.close();
  }

  @Test
  void modernResultsCarryCachingHintsAndMatchTheSchema() {
    ServerSession session = server.openSession(m -> {});
    valid(
        "2026-07-28",
        "ListResourcesResult",
        session.handle(modern(1, "resources/list", ""), m -> {}));
    valid(
        "2026-07-28",
        "ListResourceTemplatesResult",
        session.handle(modern(2, "resources/templates/list", ""), m -> {}));
    valid(
        "2026-07-28",
        "ReadResourceResult",
        session.handle(modern(3, "resources/read", "\"uri\":\"test://b\""), m -> {}));
    Response missing =
        session.handle(modern(4, "resources/read", "\"uri\":\"test://none\""), m -> {});
    assertThat(((ErrorResponse) missing).code()).isEqualTo(-32602);
    Response subscribe =
        session.handle(modern(5, "resources/subscribe", "\"uri\":\"test://a\""), m -> {});
    assertThat(((ErrorResponse) subscribe).code()).isEqualTo(-32601);
  }

  @Test
  void modernListenDeliversOnlyWatchedResources() throws Exception {
    ServerSession session = server.openSession(m -> {});
    BlockingQueue<Message> stream = new LinkedBlockingQueue<>();
    AtomicReference<Response> last = new AtomicReference<>();
    Thread listener = Thread.ofVirtual()
        .start(() -> last.set(session.handle(
            modern(
                9,
                "subscriptions/listen",
                "\"notifications\":{\"resourcesListChanged\":true,\"resourceSubscriptions\":[\"test://a\"]}"),
            stream::add)));
    Message ack = stream.poll(5, TimeUnit.SECONDS);
    validMessage("2026-07-28", "SubscriptionsAcknowledgedNotification", ack);
    assertThat(JsonCodec.write(MessageCodec.toJson(ack)))
        .contains(
            "\"notifications\":{\"resourcesListChanged\":true,\"resourceSubscriptions\":[\"test://a\"]}");
    provider.listener.get().updated("test://b");
    provider.listener.get().updated("test://a");
    Message updated = stream.poll(5, TimeUnit.SECONDS);
    validMessage("2026-07-28", "ResourceUpdatedNotification", updated);
    assertThat(JsonCodec.write(MessageCodec.toJson(updated))).contains("\"uri\":\"test://a\"");
    provider.listener.get().listChanged();
    validMessage("2026-07-28", "ResourceListChangedNotification", stream.poll(5, TimeUnit.SECONDS));
    session.close();
    listener.join(5000);
    valid("2026-07-28", "SubscriptionsListenResult", last.get());
  }

  @Test
  void cursorsPageThroughResources() {
    McpServer paged = McpServer.builder().resources(provider).pageSize(1).build();
    ServerSession session = paged.openSession(m -> {});
    JsonObject first = result(session.handle(modern(1, "resources/list", ""), m -> {}));
    String cursor = first.string("nextCursor").orElseThrow();
    JsonObject second = result(
        session.handle(modern(2, "resources/list", "\"cursor\":\"" + cursor + "\""), m -> {}));
    assertThat(second.has("nextCursor")).isFalse();
    assertThat(JsonCodec.write(second)).contains("test://b");
    Response forged = session.handle(
        modern(3, "resources/templates/list", "\"cursor\":\"" + cursor + "\""), m -> {});
    assertThat(((ErrorResponse) forged).code()).isEqualTo(-32602);
  }

  private static Request request(long id, String method, String params) {
    return new Request(RequestId.of(id), method, (JsonObject) JsonCodec.parse(params));
  }

  private static Request modern(long id, String method, String members) {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    return request(id, method, "{" + (members.isEmpty() ? "" : members + ",") + meta + "}");
  }

  private static JsonObject result(Response r) {
    assertThat(r).isInstanceOf(ResultResponse.class);
    return ((ResultResponse) r).result();
  }

  private static JsonObject valid(String version, String type, Response r) {
    JsonObject result = result(r);
    assertValid(version, type, JsonCodec.write(result));
    return result;
  }

  private static void validMessage(String version, String type, Message m) {
    assertThat(m).isNotNull();
    assertValid(version, type, JsonCodec.write(MessageCodec.toJson(m)));
  }

  private static void assertValid(String version, String type, String json) {
    JsonSchema schema = SCHEMAS.computeIfAbsent(version + "#" + type, k -> load(version, type));
    Set<ValidationMessage> errors = schema.validate(json, InputFormat.JSON);
    assertThat(errors).as("%s %s: %s", version, type, json).isEmpty();
  }

  /**
   * The era's whole schema document with a root {@code $ref} to one type, so that every reference
   * resolves.
   */
  private static JsonSchema load(String version, String type) {
    try {
      Path dir = SpecDir.path();
      JsonObject root = (JsonObject)
          JsonCodec.parse(Files.readString(dir.resolve(version).resolve("schema.json")));
      boolean draft2020 = root.has("$defs");
      String wrapped = JsonCodec.write(root.toBuilder()
          .put("$ref", (draft2020 ? "#/$defs/" : "#/definitions/") + type)
          .build());
      return JsonSchemaFactory.getInstance(
              draft2020 ? SpecVersion.VersionFlag.V202012 : SpecVersion.VersionFlag.V7)
          .getSchema(wrapped);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Two resources (one rich, one binary) and a template; keeps the listener so tests can announce
   * changes.
   */
  private static final class Fixture implements ResourceProvider {
    final AtomicReference<Listener> listener = new AtomicReference<>();

    @Override
    public List<Resource> resources() {
      return List.of(
          new Resource(
              "test://a",
              "a",
              "The A",
              "text A",
              "text/plain",
              6L,
              new Annotations(List.of(Role.USER), 0.5, "2025-01-01T00:00:00Z"),
              List.of(new Icon("https://example.com/a.png", "image/png", List.of("48x48"), null)),
              JsonObject.builder().put("k", "v").build()),
          Resource.of("test://b", "b", "binary B", "application/octet-stream"));
    }

    @Override
    public List<ResourceTemplate> templates() {
      return List.of(ResourceTemplate.of("test://t/{id}", "t", "by id", "text/plain"));
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      return switch (uri) {
        case "test://a" ->
          Optional.of(List.of(new TextResourceContents(uri, "text/plain", "hello!", null)));
        case "test://b" ->
          Optional.of(
              List.of(new BlobResourceContents(uri, "application/octet-stream", "AAEC", null)));
        default -> Optional.empty();
      };
    }

    @Override
    public AutoCloseable onChange(Listener l) {
      listener.set(l);
      return () -> listener.set(null);
    }
  }
}
