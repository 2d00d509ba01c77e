package io.promptd.mcp.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A 2025-03-26 session's JSON-RPC batches are bounded: past {@link McpServer.Builder#batchLimits}'s
 * message count a batch is refused whole with one -32600 error; once its answers pass the byte
 * bound, the requests left are not run and each is answered with an error, so that the answer never
 * grows with the batch.
 */
class BatchLimitsTest {
  private final AtomicInteger renders = new AtomicInteger();
  /** One prompt whose answer is about 1 KiB, counting how often it is rendered. */
  private final PromptCatalog catalog = PromptCatalog.of(List.of(new PromptDefinition(
      Prompt.of("big", null, List.of()),
      args -> {
        renders.incrementAndGet();
        return GetPromptResult.of(null, List.of(PromptMessage.user("x".repeat(1024))));
      },
      null)));

  @Test
  void aBatchOverTheDefaultMessageLimitIsRefusedWithTheLimitInTheMessage() {
    try (McpServer server = McpServer.builder().prompts(catalog).build()) {
      ServerSession session = session(server);
      assertThat(McpServer.DEFAULT_MAX_BATCH_MESSAGES).isEqualTo(100);
      Reply full = session.receive(pings(100)).run(new Recorder());
      assertThat(JsonCodec.parse(new String(full.encode(false), UTF_8)))
          .isInstanceOfSatisfying(JsonArray.class, a -> assertThat(a.size()).isEqualTo(100));

      Reply over = session.receive(pings(101)).run(new Recorder());
      assertThat(over.hint()).isEqualTo(Reply.Hint.REJECTED);
      String text = new String(over.encode(false), UTF_8);
      assertThat(text)
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":"
              + "\"Invalid request: a batch may hold at most 100 messages, this one holds 101\"}}");
      SchemaHarness.of(ProtocolVersion.V2025_03_26).assertConforms(text, null);
    }
  }

  @Test
  void theMessageLimitIsConfigurable() {
    try (McpServer server = McpServer.builder().batchLimits(3, 1 << 20).build()) {
      ServerSession session = session(server);
      assertThat(new String(session.receive(pings(4)).run(new Recorder()).encode(false), UTF_8))
          .contains("-32600", "at most 3 messages, this one holds 4");
      assertThat(new String(session.receive(pings(3)).run(new Recorder()).encode(false), UTF_8))
          .doesNotContain("error");
    }
    assertThatThrownBy(() -> McpServer.builder().batchLimits(0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("McpServer.Builder.batchLimits: maxMessages must be at least 1, not 0");
    assertThatThrownBy(() -> McpServer.builder().batchLimits(1, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("McpServer.Builder.batchLimits: maxAnswerBytes must be at least 1, not 0");
  }

  @Test
  void answersPastTheByteBoundAreNotBuiltAndEachRequestLeftGetsAnError() {
    int bound = 8 * 1024;
    try (McpServer server =
        McpServer.builder().prompts(catalog).batchLimits(100, bound).build()) {
      ServerSession session = session(server);
      int one = new String(
              session
                  .receive(batch(1, "prompts/get", "{\"name\":\"big\"}"))
                  .run(new Recorder())
                  .encode(false),
              UTF_8)
          .length();
      renders.set(0);

      Reply reply =
          session.receive(batch(50, "prompts/get", "{\"name\":\"big\"}")).run(new Recorder());
      String text = new String(reply.encode(false), UTF_8);
      List<JsonObject> answers = ((JsonArray) JsonCodec.parse(text))
          .elements().stream().map(JsonObject.class::cast).toList();
      assertThat(answers).hasSize(50);
      List<JsonObject> results = answers.stream().filter(a -> a.has("result")).toList();
      List<JsonObject> refused = answers.stream().filter(a -> a.has("error")).toList();
      assertThat(results).isNotEmpty();
      assertThat(refused).isNotEmpty();
      assertThat(renders.get()).as("requests past the bound are not run").isEqualTo(results.size());
      assertThat(answers.subList(0, results.size())).allMatch(a -> a.has("result"));
      int errorBytes = 0;
      for (int i = 0; i < refused.size(); i++) {
        String error = JsonCodec.write(refused.get(i));
        assertThat(error)
            .startsWith("{\"jsonrpc\":\"2.0\",\"id\":" + (results.size() + 1 + i) + ",")
            .contains(
                "\"code\":" + ErrorCodes.INVALID_REQUEST,
                "not run: the batch's answers passed " + bound + " bytes");
        errorBytes += error.length() + 1;
      }
      assertThat(text.length()).isLessThanOrEqualTo(bound + one + errorBytes);
      SchemaHarness harness = SchemaHarness.of(ProtocolVersion.V2025_03_26);
      for (JsonObject a : answers) {
        harness.assertConforms(JsonCodec.write(a), a.has("result") ? "prompts/get" : null);
      }
    }
  }

  private static ServerSession session(McpServer server) {
    ServerSession session = server.openSession(new Recorder());
    session.handle(Wire.initialize("2025-03-26"), new Recorder());
    return session;
  }

  private static Incoming pings(int n) {
    return batch(n, "ping", "{}");
  }

  /** A batch of {@code n} requests of {@code method}, ids 1 to n. */
  private static Incoming batch(int n, String method, String params) {
    List<String> items = new ArrayList<>();
    IntStream.rangeClosed(1, n)
        .forEach(i -> items.add("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"" + method
            + "\",\"params\":" + params + "}"));
    return MessageCodec.decode(items.stream().collect(Collectors.joining(",", "[", "]")));
  }
}
