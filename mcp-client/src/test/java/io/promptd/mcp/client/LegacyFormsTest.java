package io.promptd.mcp.client;

import static io.promptd.mcp.client.FakeHttpServer.LEGACY_INIT;
import static io.promptd.mcp.client.FakeHttpServer.event;
import static io.promptd.mcp.client.FakeHttpServer.result;
import static io.promptd.mcp.client.FakeHttpServer.send;
import static io.promptd.mcp.client.FakeHttpServer.startEvents;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.TextContent;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A legacy server that asks the user while it answers a request: over Streamable HTTP its
 * {@code elicitation/create} arrives on the request's event stream and the client POSTs the answer
 * in the session. The session declares the capability only when the client has a
 * {@link FormHandler}; the time a form is open does not count against the waiting request's
 * timeout.
 */
class LegacyFormsTest {
  private static final String FORM =
      "{\"jsonrpc\":\"2.0\",\"id\":\"ask-1\",\"method\":\"elicitation/create\","
          + "\"params\":{\"message\":\"Who?\",\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"who\":"
          + "{\"type\":\"string\"}},\"required\":[\"who\"]}}}";

  /**
   * A legacy server whose prompts/get asks with a form on its event stream and renders the answer
   * (or says what came back); the client's answer is the POST that carries no method.
   */
  private static FakeHttpServer server(CompletableFuture<JsonObject> answer) throws Exception {
    return new FakeHttpServer((seen, rpc, exchange) -> {
      switch (seen.rpcMethod()) {
        case "server/discover" ->
          send(exchange, 400, "text/plain", "Bad Request: No valid session ID provided");
        case "initialize" ->
          send(exchange, 200, "application/json", result(rpc, LEGACY_INIT), "Mcp-Session-Id", "s1");
        case "notifications/initialized" -> send(exchange, 202, "", "");
        case "" -> {
          answer.complete(rpc);
          send(exchange, 202, "", "");
        }
        case "prompts/get" -> {
          OutputStream out = startEvents(exchange);
          event(out, FORM);
          String text;
          try {
            JsonObject a = answer.get(20, TimeUnit.SECONDS);
            text = a.object("result")
                .flatMap(r -> r.object("content"))
                .flatMap(c -> c.string("who"))
                .map(w -> "Hello, " + w)
                .orElse("no name: " + JsonCodec.write(a));
          } catch (Exception e) {
            text = "no answer";
          }
          event(
              out,
              result(
                  rpc,
                  "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":"
                      + JsonCodec.write(new JsonString(text)) + "}}]}"));
        }
        default -> send(exchange, 404, "text/plain", "no");
      }
    });
  }

  @Test
  void theFormGoesToTheHandlerAndItsTimeDoesNotCountAgainstTheRequest() throws Exception {
    CompletableFuture<JsonObject> answer = new CompletableFuture<>();
    CountDownLatch shown = new CountDownLatch(1);
    CountDownLatch answered = new CountDownLatch(1);
    FormHandler person = (message, schema) -> {
      assertThat(message).isEqualTo("Who?");
      assertThat(schema.object("properties").orElseThrow().members()).containsOnlyKeys("who");
      shown.countDown();
      try {
        answered.await(20, TimeUnit.SECONDS); // the person answers when the test says so
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return FormHandler.Answer.accept(JsonObject.builder().put("who", "Ada").build());
    };
    ClientOptions options =
        ClientOptions.defaults().withTimeout(Duration.ofSeconds(1)).withForms(person);
    try (FakeHttpServer server = server(answer);
        McpClient client = McpClient.connectHttp(server.uri(), options)) {
      assertThat(client.modern()).isFalse();
      assertThat(capabilities(server)).isEqualTo("{\"elicitation\":{}}");
      CompletableFuture<String> rendered = CompletableFuture.supplyAsync(() -> {
        try {
          return ((TextContent)
                  client.getPrompt("greet", Map.of()).messages().getFirst().content())
              .text();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      assertThat(shown.await(10, TimeUnit.SECONDS)).as("the form was shown").isTrue();
      // The form stays open for twice the request's 1 s timeout: the request must still be waiting,
      // not timed out.
      assertThatThrownBy(() -> rendered.get(2, TimeUnit.SECONDS))
          .isInstanceOf(TimeoutException.class);
      answered.countDown();
      assertThat(rendered.get(10, TimeUnit.SECONDS)).isEqualTo("Hello, Ada");
      JsonObject posted = answer.get(1, TimeUnit.SECONDS);
      assertThat(JsonCodec.write(posted))
          .isEqualTo(
              "{\"jsonrpc\":\"2.0\",\"id\":\"ask-1\",\"result\":{\"action\":\"accept\",\"content\":{\"who\":\"Ada\"}}}");
      FakeHttpServer.Seen post =
          server.seen.stream().filter(s -> s.rpcMethod().isEmpty()).findFirst().orElseThrow();
      assertThat(post.header("Mcp-Session-Id")).isEqualTo("s1");
      assertThat(post.header("MCP-Protocol-Version")).isEqualTo("2025-11-25");
    }
  }

  @Test
  void withoutAHandlerNothingIsDeclaredAndAFormIsRefusedAsUnknown() throws Exception {
    CompletableFuture<JsonObject> answer = new CompletableFuture<>();
    try (FakeHttpServer server = server(answer);
        McpClient client = McpClient.connectHttp(
            server.uri(), ClientOptions.defaults().withTimeout(Duration.ofSeconds(10)))) {
      var result = client.getPrompt("greet", Map.of());
      assertThat(((TextContent) result.messages().getFirst().content()).text())
          .startsWith("no name: ")
          .contains("\"code\":-32601");
      assertThat(capabilities(server)).isEqualTo("{}");
    }
  }

  @Test
  void aDeclinedFormIsSentAsDeclinedAndAModeNotDeclaredIsInvalidParams() {
    ServerRequests requests = new ServerRequests((message, schema) -> FormHandler.Answer.decline());
    JsonObject form = ((JsonObject) JsonCodec.parse(FORM)).object("params").orElseThrow();
    Response declined = requests.answer(new Request(RequestId.of(1), "elicitation/create", form));
    assertThat(declined)
        .isInstanceOfSatisfying(
            ResultResponse.class,
            r -> assertThat(JsonCodec.write(r.result())).isEqualTo("{\"action\":\"decline\"}"));
    assertThat(requests.formNanos()).as("the form's time is counted").isPositive();
    Response url = requests.answer(new Request(
        RequestId.of(2),
        "elicitation/create",
        JsonObject.builder()
            .put("mode", "url")
            .put("url", "https://example.com")
            .build()));
    assertThat(url)
        .isInstanceOfSatisfying(ErrorResponse.class, e -> assertThat(e.code()).isEqualTo(-32602));
    assertThat(requests.formOpen()).isFalse();
  }

  private static String capabilities(FakeHttpServer server) {
    JsonObject init = (JsonObject) JsonCodec.parse(server.seen.stream()
        .filter(s -> s.rpcMethod().equals("initialize"))
        .findFirst()
        .orElseThrow()
        .body());
    return JsonCodec.write(init.object("params").orElseThrow().get("capabilities"));
  }
}
