package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.errorCode;
import static io.promptd.mcp.http.TestClient.json;
import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.testing.Poll;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The 2026-07-28 era over HTTP: no sessions, metadata headers checked against the body, listen
 * streams.
 */
class ModernHttpTest {
  private static final Duration WAIT = Duration.ofSeconds(5);
  private static final ConformanceFixtures.Resources RESOURCES =
      new ConformanceFixtures.Resources();
  private static McpServer server;
  private static HttpTransport http;
  private static TestClient client;

  @BeforeAll
  static void start() throws Exception {
    server = McpServer.builder()
        .prompts(ConformanceFixtures.prompts())
        .resources(RESOURCES)
        .changeCoalescing(Duration.ofMillis(1))
        .build();
    http = HttpTransport.builder()
        .server(server)
        .keepAliveInterval(Duration.ofMillis(100))
        .build()
        .start();
    client = new TestClient(http.uri());
  }

  @AfterAll
  static void stop() {
    http.close();
    server.close();
  }

  @Test
  void discoverIsServedStatelesslyAsJsonWithoutASession() {
    HttpResponse<String> r =
        client.post(modern(1, "server/discover", ""), modernHeaders("server/discover", null));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
    JsonObject result = json(r).object("result").orElseThrow();
    assertThat(result.string("resultType")).hasValue("complete");
    assertThat(TestClient.text(result.object("capabilities").orElseThrow()))
        .contains("\"resources\":{\"subscribe\":true,\"listChanged\":true}");
  }

  @Test
  void aSessionIdOnAModernRequestIsIgnored() {
    String[] headers = {
      "MCP-Protocol-Version",
      "2026-07-28",
      "Mcp-Method",
      "prompts/list",
      "Mcp-Session-Id",
      "whatever"
    };
    HttpResponse<String> r = client.post(modern(1, "prompts/list", ""), headers);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Mcp-Session-Id")).isEmpty();
  }

  @Test
  void promptsGetNeedsMatchingNameHeader() {
    String body = modern(2, "prompts/get", "\"name\":\"test_simple_prompt\"");
    assertThat(client
            .post(body, modernHeaders("prompts/get", "test_simple_prompt"))
            .statusCode())
        .isEqualTo(200);
    HttpResponse<String> missing = client.post(body, modernHeaders("prompts/get", null));
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(errorCode(missing)).isEqualTo(-32020);
    HttpResponse<String> wrong =
        client.post(body, modernHeaders("prompts/get", "test_prompt_with_image"));
    assertThat(wrong.statusCode()).isEqualTo(400);
    assertThat(wrong.body())
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32020,\"message\":"
            + "\"Header mismatch: Mcp-Name header value 'test_prompt_with_image' does not match body value"
            + " 'test_simple_prompt'\"}}");
  }

  @Test
  void base64SentinelNamesAreDecodedBeforeComparing() {
    String uri = "test://template/ünï/data";
    String encoded = "=?base64?"
        + Base64.getEncoder().encodeToString(uri.getBytes(StandardCharsets.UTF_8)) + "?=";
    HttpResponse<String> r = client.post(
        modern(3, "resources/read", "\"uri\":\"" + uri + "\""),
        modernHeaders("resources/read", encoded));
    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject result = json(r).object("result").orElseThrow();
    assertThat(result.string("cacheScope")).hasValue("private");
    assertThat(client
            .post(
                modern(3, "resources/read", "\"uri\":\"" + uri + "\""),
                modernHeaders("resources/read", "=?base64?!!!?="))
            .statusCode())
        .isEqualTo(400);
  }

  @Test
  void methodAndVersionHeadersMustMatchTheBody() {
    String body = modern(4, "prompts/list", "");
    HttpResponse<String> noMethod = client.post(body, "MCP-Protocol-Version", "2026-07-28");
    assertThat(noMethod.statusCode()).isEqualTo(400);
    assertThat(errorCode(noMethod)).isEqualTo(-32020);
    HttpResponse<String> otherMethod = client.post(body, modernHeaders("resources/list", null));
    assertThat(otherMethod.statusCode()).isEqualTo(400);
    assertThat(errorCode(otherMethod)).isEqualTo(-32020);
    HttpResponse<String> noVersion = client.post(body, "Mcp-Method", "prompts/list");
    assertThat(noVersion.statusCode()).isEqualTo(400);
    assertThat(errorCode(noVersion)).isEqualTo(-32020);
  }

  /**
   * 2026-07-28, basic: "A request missing any required field is malformed; the server MUST reject
   * it with JSON-RPC error code -32602 (Invalid params). On HTTP, the response status MUST be 400
   * Bad Request." The same for a log level that names no level (logging: SHOULD reject with
   * -32602).
   */
  @Test
  void malformedRequestMetadataGets400WithInvalidParams() {
    String body = modern(7, "prompts/list", "");
    String noCapabilities = body.replace("\"io.modelcontextprotocol/clientCapabilities\":{},", "");
    String noVersion =
        body.replace("\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",", "");
    String badLevel =
        body.replace("\"_meta\":{", "\"_meta\":{\"io.modelcontextprotocol/logLevel\":\"loud\",");
    for (String malformed : List.of(noCapabilities, noVersion, badLevel)) {
      assertThat(malformed).isNotEqualTo(body);
      HttpResponse<String> r = client.post(malformed, modernHeaders("prompts/list", null));
      assertThat(r.statusCode()).as(malformed).isEqualTo(400);
      assertThat(errorCode(r)).as(malformed).isEqualTo(-32602);
      assertThat(r.body())
          .as("the request's id is echoed")
          .startsWith("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":");
    }
    // An application-level -32602 (an unknown prompt) is an answer, not a malformed request: 200.
    HttpResponse<String> unknown = client.post(
        modern(8, "prompts/get", "\"name\":\"no-such-prompt\""),
        modernHeaders("prompts/get", "no-such-prompt"));
    assertThat(unknown.statusCode()).isEqualTo(200);
    assertThat(errorCode(unknown)).isEqualTo(-32602);
  }

  @Test
  void unsupportedVersionsGet400WithTheSupportedList() {
    String body = modern(5, "prompts/list", "").replace("2026-07-28", "2099-01-01");
    HttpResponse<String> r =
        client.post(body, "MCP-Protocol-Version", "2099-01-01", "Mcp-Method", "prompts/list");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(errorCode(r)).isEqualTo(-32022);
    assertThat(r.body()).contains("\"supported\":[\"2026-07-28\",\"2025-11-25\"");
  }

  @Test
  void unknownMethodsGet404WithAJsonRpcError() {
    HttpResponse<String> r =
        client.post(modern(6, "tools/list", ""), modernHeaders("tools/list", null));
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(errorCode(r)).isEqualTo(-32601);
  }

  @Test
  void missingResourcesAre32602AndOtherErrorsKeepStatus200() {
    HttpResponse<String> r = client.post(
        modern(7, "resources/read", "\"uri\":\"test://missing\""),
        modernHeaders("resources/read", "test://missing"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(errorCode(r)).isEqualTo(-32602);
  }

  @Test
  void batchesAndResponsesAreRefusedAndNotificationsAccepted() {
    HttpResponse<String> batch =
        client.post("[" + modern(8, "ping", "") + "]", modernHeaders("ping", null));
    assertThat(batch.statusCode()).isEqualTo(400);
    assertThat(errorCode(batch)).isEqualTo(-32600);
    assertThat(client
            .post("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", modernHeaders("ping", null))
            .statusCode())
        .isEqualTo(400);
    assertThat(client
            .post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}", modernHeaders("x", null))
            .statusCode())
        .isEqualTo(202);
  }

  @Test
  void listenStreamsAcknowledgeThenDeliverChanges() throws Exception {
    String body = modern(
        9,
        "subscriptions/listen",
        "\"notifications\":{\"promptsListChanged\":true,"
            + "\"resourceSubscriptions\":[\"test://watched-resource\"]}");
    HttpResponse<InputStream> r =
        client.postStream(body, modernHeaders("subscriptions/listen", null));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    try (TestClient.Events events = new TestClient.Events(r.body())) {
      String ack = events.next(WAIT).data();
      Schemas.assertValid(TestClient.MODERN, "SubscriptionsAcknowledgedNotification", ack);
      assertThat(ack)
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":"
              + "\"notifications/subscriptions/acknowledged\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/"
              + "subscriptionId\":9},\"notifications\":{\"promptsListChanged\":true,\"resourceSubscriptions\":"
              + "[\"test://watched-resource\"]}}}");
      RESOURCES.touch("test://watched-resource");
      String updated = events.next(WAIT).data();
      Schemas.assertValid(TestClient.MODERN, "ResourceUpdatedNotification", updated);
      assertThat(updated)
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":"
              + "\"notifications/resources/updated\",\"params\":{\"uri\":\"test://watched-resource\",\"_meta\":"
              + "{\"io.modelcontextprotocol/subscriptionId\":9}}}");
      server
          .prompts()
          .put(PromptDefinition.of(
              Prompt.of("modern-added", "added", List.of()),
              args -> List.of(PromptMessage.user("hi"))));
      String changed = events.next(WAIT).data();
      Schemas.assertValid(TestClient.MODERN, "PromptListChangedNotification", changed);
      assertThat(changed).contains("notifications/prompts/list_changed");
    }
  }

  @Test
  void listenWithABadFilterIsAPlainJsonError() {
    HttpResponse<String> r = client.post(
        modern(10, "subscriptions/listen", ""), modernHeaders("subscriptions/listen", null));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(errorCode(r)).isEqualTo(-32602);
  }

  @Test
  void closingTheListenStreamCancelsTheRequest() throws Exception {
    long before = http.modernCancelled();
    HttpResponse<InputStream> r = client.postStream(
        modern(11, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}"),
        modernHeaders("subscriptions/listen", null));
    TestClient.Events events = new TestClient.Events(r.body());
    events.next(WAIT); // the acknowledgement: the request is now in flight
    assertThat(http.modernInFlight()).isGreaterThanOrEqualTo(1);
    events.close();
    Poll.until(
        WAIT,
        Duration.ofMillis(20),
        () -> "the request counted as cancelled",
        () -> http.modernCancelled() != before);
    assertThat(http.modernCancelled()).isEqualTo(before + 1);
  }
}
