package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code prompts/list} paging: sorted, configurable, unforgeable (not secret) cursors, stable while
 * the catalog changes.
 */
class PagingTest {
  private final PromptCatalog catalog = PromptCatalog.of(
      IntStream.range(0, 25).mapToObj(i -> prompt(String.format("p%02d", i))).toList());
  private final McpServer server =
      McpServer.builder().prompts(catalog).pageSize(10).build();
  private final ServerSession session = server.openSession(new Recorder());
  private int nextId;

  @AfterEach
  void close() {
    session.close();
    server.close();
  }

  @Test
  void pagesFollowNameOrderAndTheConfiguredSize() {
    Page first = list(null);
    assertThat(first.names())
        .containsExactly("p00", "p01", "p02", "p03", "p04", "p05", "p06", "p07", "p08", "p09");
    Page second = list(first.cursor());
    assertThat(second.names())
        .containsExactly("p10", "p11", "p12", "p13", "p14", "p15", "p16", "p17", "p18", "p19");
    Page last = list(second.cursor());
    assertThat(last.names()).containsExactly("p20", "p21", "p22", "p23", "p24");
    assertThat(last.cursor()).isNull();
    assertThat(list(first.cursor()).names()).isEqualTo(second.names());
  }

  @Test
  void legacySessionsPageTheSameWay() {
    session.handle(Wire.initialize("2025-06-18"), new Recorder());
    String cursor = null;
    List<String> names = new ArrayList<>();
    do {
      Response r = session.handle(
          Wire.legacy(++nextId, "prompts/list", cursorParam(cursor)), new Recorder());
      SchemaHarness.of(ProtocolVersion.V2025_06_18)
          .assertConforms(MessageCodec.encode(r), "prompts/list");
      Page page = Page.of(r);
      names.addAll(page.names());
      cursor = page.cursor();
    } while (cursor != null);
    assertThat(names).hasSize(25).isSorted();
  }

  @Test
  void aCursorWhosePromptWasRemovedStillContinuesAfterIt() {
    Page first = list(null);
    catalog.remove("p09");
    catalog.remove("p10");
    assertThat(list(first.cursor()).names()).startsWith("p11", "p12");
  }

  @Test
  void aCursorIsSignedNotEncrypted() {
    // What Cursors' comment and docs/protocol.md say: anyone can read the last name served; nobody
    // can change it.
    String cursor = list(null).cursor();
    String payload = cursor.substring(0, cursor.indexOf('.'));
    assertThat(new String(Base64.getUrlDecoder().decode(payload), StandardCharsets.UTF_8))
        .isEqualTo("p09");
  }

  @Test
  void forgedTamperedAndForeignCursorsAreInvalidParams() {
    String cursor = list(null).cursor();
    String payload = cursor.substring(0, cursor.indexOf('.'));
    String tag = cursor.substring(cursor.indexOf('.') + 1);
    String otherName = Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString("p00".getBytes(StandardCharsets.UTF_8));
    String flipped = tag.substring(0, tag.length() - 1) + (tag.endsWith("A") ? "B" : "A");
    String foreign;
    try (McpServer other = McpServer.builder().prompts(catalog).pageSize(10).build()) {
      foreign = Page.of(other.openSession(new Recorder()).handle(modernList(null), new Recorder()))
          .cursor();
    }
    for (String bad : List.of(
        otherName + "." + tag,
        payload + "." + flipped,
        payload,
        payload + ".",
        "." + tag,
        payload + ".!!!",
        "x".repeat(5000) + "." + tag,
        foreign)) {
      Response r = session.handle(modernList(bad), new Recorder());
      assertThat(r).as(bad).isInstanceOfSatisfying(ErrorResponse.class, e -> {
        assertThat(e.code()).isEqualTo(-32602);
        assertThat(e.message())
            .isEqualTo("Invalid cursor: not one this server issued (start again without a cursor)");
      });
    }
  }

  /**
   * A walker pages through while other threads add and remove other prompts: every prompt present
   * throughout the walk appears exactly once, and the walk never goes backwards.
   */
  @Test
  void cursorsStayCorrectUnderConcurrentEdits() throws Exception {
    List<String> stable =
        IntStream.range(0, 200).mapToObj(i -> String.format("s%03d", i)).toList();
    catalog.replaceAll(stable.stream().map(PagingTest::prompt).toList());
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> editors = new ArrayList<>();
    for (int e = 0; e < 2; e++) {
      editors.add(Thread.ofPlatform().start(() -> {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        while (!stop.get()) {
          // Names that sort between, before and after the stable ones.
          String name = switch (random.nextInt(3)) {
            case 0 -> String.format("s%03d-v%d", random.nextInt(200), random.nextInt(3));
            case 1 -> "a-v" + random.nextInt(5);
            default -> "z-v" + random.nextInt(5);
          };
          if (random.nextBoolean()) {
            catalog.put(prompt(name));
          } else {
            catalog.remove(name);
          }
          Thread.yield();
        }
      }));
    }
    try {
      for (int walk = 0; walk < 40; walk++) {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
          Page page = Page.of(session.handle(modernList(cursor), new Recorder()));
          seen.addAll(page.names());
          cursor = page.cursor();
        } while (cursor != null);
        assertThat(seen).as("walk %d", walk).isSorted().doesNotHaveDuplicates();
        assertThat(seen.stream().filter(stable::contains).toList())
            .as("walk %d", walk)
            .isEqualTo(stable);
      }
    } finally {
      stop.set(true);
      for (Thread t : editors) {
        t.join();
      }
    }
  }

  private Page list(@Nullable String cursor) {
    Response r = session.handle(modernList(cursor), new Recorder());
    SchemaHarness.of(ProtocolVersion.V2026_07_28)
        .assertConforms(MessageCodec.encode(r), "prompts/list");
    return Page.of(r);
  }

  private Request modernList(@Nullable String cursor) {
    return Wire.modern(++nextId, "prompts/list", cursorParam(cursor));
  }

  private static String cursorParam(@Nullable String cursor) {
    return cursor == null ? "" : "\"cursor\":" + JsonCodec.write(new JsonString(cursor));
  }

  private static PromptDefinition prompt(String name) {
    return PromptDefinition.of(
        Prompt.of(name, null, List.of()), args -> List.of(PromptMessage.user(name)));
  }

  private record Page(List<String> names, @Nullable String cursor) {
    static Page of(Response response) {
      assertThat(response).isInstanceOf(ResultResponse.class);
      JsonObject result = ((ResultResponse) response).result();
      List<String> names = result.array("prompts").orElseThrow().elements().stream()
          .map(p -> ((JsonObject) p).string("name").orElseThrow())
          .toList();
      return new Page(names, result.string("nextCursor").orElse(null));
    }
  }
}
