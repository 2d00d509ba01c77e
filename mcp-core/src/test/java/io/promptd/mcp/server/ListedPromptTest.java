package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link PromptDefinition#listed}: a prompt known by its name until its metadata is asked for, as a
 * library restored from its on-disk index serves 100,000 of them.
 */
@Timeout(30)
class ListedPromptTest {
  /** How many times each name's metadata was made. */
  private final ConcurrentHashMap<String, AtomicInteger> made = new ConcurrentHashMap<>();

  private PromptDefinition listed(String name) {
    return PromptDefinition.listed(
        name,
        () -> {
          made.computeIfAbsent(name, k -> new AtomicInteger()).incrementAndGet();
          return new Prompt(
              name,
              null,
              "about " + name,
              List.of(new PromptArgument("topic", null, null, true)),
              List.of(),
              null);
        },
        args -> GetPromptResult.of(null, List.of(PromptMessage.user(name + " " + args))),
        null);
  }

  @Test
  void aCatalogOfListedPromptsMakesOnlyTheMetadataAPageShows() {
    PromptCatalog catalog = PromptCatalog.of(IntStream.range(0, 1000)
        .mapToObj(i -> listed(String.format("p%04d", i)))
        .toList());
    assertThat(catalog.size()).isEqualTo(1000);
    assertThat(catalog.get("p0500")).isPresent();
    assertThat(made).isEmpty(); // sorting, claiming and looking up use the names only

    McpServer server = McpServer.builder().prompts(catalog).pageSize(10).build();
    ServerSession session = server.openSession(new Recorder());
    try {
      JsonObject page = ((ResultResponse)
              session.handle(Wire.modern(1, "prompts/list", ""), new Recorder()))
          .result();
      List<String> names = new ArrayList<>();
      page.array("prompts").orElseThrow().elements().forEach(p -> {
        JsonObject prompt = (JsonObject) p;
        names.add(prompt.string("name").orElseThrow());
        assertThat(prompt.string("description")).contains("about " + names.getLast());
      });
      assertThat(names).hasSize(10).first().isEqualTo("p0000");
      assertThat(made.keySet()).containsExactlyInAnyOrderElementsOf(names);

      JsonObject got = ((ResultResponse) session.handle(
              Wire.modern(2, "prompts/get", "\"name\":\"p0999\",\"arguments\":{\"topic\":\"x\"}"),
              new Recorder()))
          .result();
      assertThat(got.toString()).contains("p0999 {topic=x}");
      assertThat(made).hasSize(11); // its metadata checks the arguments
      made.values().forEach(count -> assertThat(count.get()).isEqualTo(1));
    } finally {
      session.close();
      server.close();
    }
  }

  @Test
  void theMetadataIsMadeOnceWhateverTheThreadsAndCopiesAskingForIt() throws Exception {
    PromptDefinition definition = listed("shared");
    PromptDefinition scoped = definition.withRequiredScopes(Set.of("team"));
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Prompt>> asked = new ArrayList<>();
    try (var pool = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < 16; i++) {
        PromptDefinition d = i % 2 == 0 ? definition : scoped;
        asked.add(pool.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          return d.prompt();
        }));
      }
      start.countDown();
      Prompt first = asked.getFirst().get(10, TimeUnit.SECONDS);
      for (Future<Prompt> f : asked) {
        assertThat(f.get(10, TimeUnit.SECONDS)).isSameAs(first);
      }
    }
    assertThat(made.get("shared").get()).isEqualTo(1);
    assertThat(scoped.requiredScopes()).containsExactly("team");
    assertThat(scoped).isNotEqualTo(definition);
    assertThat(scoped.withRequiredScopes(Set.of())).isEqualTo(definition);
  }

  @Test
  void metadataOfAnotherNameIsRefusedWhenMade() {
    PromptDefinition wrong = PromptDefinition.listed(
        "right",
        () -> Prompt.of("wrong", null, List.of()),
        args -> GetPromptResult.of(null, List.of()),
        null);
    assertThat(wrong.name()).isEqualTo("right");
    assertThatThrownBy(wrong::prompt)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("'right'")
        .hasMessageContaining("'wrong'");
  }

  @Test
  void aListedPromptEqualsTheSamePromptGivenWhole() {
    PromptDefinition listed = listed("same");
    PromptDefinition whole =
        new PromptDefinition(listed.prompt(), listed.renderer(), null, Set.of(), null);
    assertThat(listed).isEqualTo(whole).hasSameHashCodeAs(whole);
    assertThat(listed.toString()).contains("same");
  }
}
