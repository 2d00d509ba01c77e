package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.Wire;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A/B splits: a split prompt is listed, completed and rendered as the caller's variant, chosen by
 * weight and sticky per caller (token subject, else legacy session, else address), and each use
 * names the variant it served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PromptSplitTest {
  private final List<PromptUse> uses = new CopyOnWriteArrayList<>();
  private final PromptCatalog catalog = PromptCatalog.create();
  private final McpServer server = McpServer.builder()
      .prompts(catalog)
      .onPromptUse(uses::add)
      .promptsAsTools(true)
      .build();
  private final StatelessEndpoint stateless = server.openStateless();
  private int nextId;

  @AfterEach
  void close() {
    server.close();
  }

  @Test
  void twoThousandKeysFallWithinFivePointsOfTheWeightsAndKeepTheirVariant() {
    PromptSplit split = split(90, 10);
    Map<String, Integer> counts = new HashMap<>();
    Map<String, String> first = new HashMap<>();
    for (int i = 0; i < 2_000; i++) {
      String key = "subject:user-" + i;
      String tag = split.pick(key).tag();
      counts.merge(tag, 1, Integer::sum);
      first.put(key, tag);
    }
    assertThat(counts.get("v7") / 2_000.0).isBetween(0.85, 0.95);
    assertThat(counts.get("v8") / 2_000.0).isBetween(0.05, 0.15);
    first.forEach((key, tag) -> assertThat(split.pick(key).tag()).isEqualTo(tag));
  }

  @Test
  void movingTheWeightsMovesOnlyCallersAcrossTheBoundary() {
    PromptSplit before = split(90, 10);
    PromptSplit after = split(50, 50);
    for (int i = 0; i < 2_000; i++) {
      String key = "subject:user-" + i;
      if (before.pick(key).tag().equals("v8")) {
        assertThat(after.pick(key).tag()).as(key).isEqualTo("v8");
      }
    }
  }

  @Test
  void anotherSaltChoosesIndependently() {
    PromptSplit a = split("production\0a.prompt.md", 50, 50);
    PromptSplit b = split("production\0b.prompt.md", 50, 50);
    long same = IntStream.range(0, 2_000)
        .filter(i -> a.pick("k" + i).tag().equals(b.pick("k" + i).tag()))
        .count();
    assertThat(same).isBetween(850L, 1_150L);
  }

  @Test
  void badSplitsAreRefused() {
    PromptDefinition v7 = variant("v7", List.of());
    assertThatThrownBy(() -> new PromptSplit("s", List.of(new PromptSplit.Variant("v7", 1, v7))))
        .hasMessageContaining("at least two");
    assertThatThrownBy(() -> new PromptSplit.Variant("v7", 0, v7)).hasMessageContaining("positive");
    assertThatThrownBy(() -> new PromptSplit(
            "s",
            List.of(new PromptSplit.Variant("v7", 1, v7), new PromptSplit.Variant("v7", 1, v7))))
        .hasMessageContaining("distinct");
    assertThatThrownBy(() -> new PromptSplit.Variant("v", 1, v7.withSplit(split(1, 1))))
        .hasMessageContaining("cannot be split");
  }

  @Test
  void eachSubjectIsListedAndServedItsOwnVariantInBothEras() {
    PromptSplit split = split(50, 50);
    catalog.put(variant("v7", List.of()).withSplit(split));
    for (int i = 0; i < 40; i++) {
      Caller caller = Caller.authenticated("user-" + i, Set.of());
      String expected = split.pick("subject:user-" + i).tag();
      String other = expected.equals("v7") ? "v8" : "v7";
      JsonObject list = modern(caller, "prompts/list", "");
      assertThat(JsonCodec.write(list))
          .contains("version " + expected)
          .doesNotContain("version " + other);
      assertThat(list.string("cacheScope")).hasValue("private");
      assertThat(JsonCodec.write(modern(caller, "prompts/get", "\"name\":\"review\"")))
          .contains("rendered by " + expected);
      ServerSession session = legacySession();
      assertThat(JsonCodec.write(legacy(session, caller, "prompts/get", "\"name\":\"review\"")))
          .contains("rendered by " + expected);
      assertThat(JsonCodec.write(legacy(
              session,
              caller,
              "tools/call",
              "\"name\":\"get_prompt\",\"arguments\":{\"name\":\"review\"}")))
          .contains("rendered by " + expected);
    }
    assertThat(uses).hasSize(80);
    for (PromptUse use : uses) {
      assertThat(use.prompt()).isEqualTo("review");
      assertThat(use.variant()).isIn("v7", "v8");
    }
    assertThat(uses.stream().map(PromptUse::variant).distinct()).hasSize(2);
  }

  @Test
  void aLegacySessionWithoutSubjectKeepsItsVariantAndTheArgumentsAreTheVariants() {
    PromptSplit split = split(1, 1);
    catalog.put(variant("v7", List.of()).withSplit(split));
    ServerSession session = legacySession();
    session.audience("session:abc");
    String expected = split.pick("session:abc").tag();
    for (int i = 0; i < 5; i++) {
      assertThat(JsonCodec.write(
              legacy(session, Caller.UNRESTRICTED, "prompts/get", "\"name\":\"review\"")))
          .contains("rendered by " + expected);
    }
    String listed = JsonCodec.write(legacy(session, Caller.UNRESTRICTED, "prompts/list", ""));
    assertThat(listed).contains("version " + expected);
    // v8 declares an argument v7 does not: completion and the unknown-argument check follow the
    // variant.
    String completion = JsonCodec.write(
        legacy(
            session,
            Caller.UNRESTRICTED,
            "completion/complete",
            "\"ref\":{\"type\":\"ref/prompt\",\"name\":\"review\"},\"argument\":{\"name\":\"tone\",\"value\":\"\"}"));
    if (expected.equals("v8")) {
      assertThat(completion).contains("friendly");
    } else {
      assertThat(completion).contains("has no argument 'tone'");
    }
  }

  @Test
  void aListingPageWithASplitPromptIsPrivateEvenWithoutAuthorization() {
    catalog.put(variant("v7", List.of()));
    assertThat(modern(Caller.UNRESTRICTED, "prompts/list", "").string("cacheScope"))
        .hasValue("public");
    catalog.put(variant("v7", List.of()).withSplit(split(1, 1)));
    assertThat(modern(Caller.UNRESTRICTED, "prompts/list", "").string("cacheScope"))
        .hasValue("private");
  }

  @Test
  void anAnonymousStatelessRequestIsKeptByItsAddress() {
    PromptSplit split = split(1, 1);
    catalog.put(variant("v7", List.of()).withSplit(split));
    for (int i = 0; i < 20; i++) {
      String address = "10.0.0." + i;
      String expected = split.pick("address:" + address).tag();
      Request r = Wire.modern(++nextId, "prompts/get", "\"name\":\"review\"");
      Response response = stateless
          .receive(
              new Incoming.Single(r),
              new RequestHeaders("2026-07-28", "prompts/get", "review", address),
              Caller.UNRESTRICTED)
          .run(new Recorder())
          .response();
      assertThat(MessageCodec.encode(Objects.requireNonNull(response)))
          .contains("rendered by " + expected);
    }
  }

  private static PromptSplit split(int weight7, int weight8) {
    return split("production\0review.prompt.md", weight7, weight8);
  }

  private static PromptSplit split(String salt, int weight7, int weight8) {
    return new PromptSplit(
        salt,
        List.of(
            new PromptSplit.Variant("v7", weight7, variant("v7", List.of())),
            new PromptSplit.Variant(
                "v8",
                weight8,
                variant("v8", List.of(new PromptArgument("tone", null, null, false))))));
  }

  private static PromptDefinition variant(String tag, List<PromptArgument> arguments) {
    Prompt prompt = new Prompt("review", null, "version " + tag, arguments, List.of(), null);
    return new PromptDefinition(
        prompt,
        args -> GetPromptResult.of(null, List.of(PromptMessage.user("rendered by " + tag))),
        (argument, value, context) -> new Completion(List.of("friendly"), null, false));
  }

  private JsonObject modern(Caller caller, String method, String params) {
    Request r = Wire.modern(++nextId, method, params);
    Response response = stateless
        .receive(new Incoming.Single(r), new RequestHeaders("2026-07-28", method, "review"), caller)
        .run(new Recorder())
        .response();
    return result(response);
  }

  private JsonObject legacy(ServerSession session, Caller caller, String method, String params) {
    Request r = Wire.legacy(++nextId, method, params);
    return result(
        session.receive(new Incoming.Single(r), caller).run(new Recorder()).response());
  }

  private static JsonObject result(Response response) {
    JsonObject message =
        (JsonObject) JsonCodec.parse(MessageCodec.encode(Objects.requireNonNull(response)));
    return message.object("result").or(() -> message.object("error")).orElseThrow();
  }

  private ServerSession legacySession() {
    Recorder out = new Recorder();
    ServerSession session = server.openSession(out);
    session.handle(Wire.initialize("2025-11-25"), out);
    return session;
  }
}
