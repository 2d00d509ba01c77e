package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Per-prompt access: a caller sees only the prompts whose required scopes it holds, in both eras; a
 * hidden prompt or resource is answered exactly like one that does not exist;
 * {@link Caller#UNRESTRICTED} sees everything.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AccessTest {
  private static final Caller TEAM = Caller.authenticated("alice", Set.of("team"));
  private static final Caller NOBODY = Caller.authenticated("bob", Set.of());
  private static final Caller BOTH =
      Caller.authenticated("carol", Set.of("team", "admin", "extra"));

  /**
   * p00..p19: every third needs "team", p05 and p15 need "team" and "admin", the rest are public.
   */
  private final PromptCatalog catalog = PromptCatalog.of(IntStream.range(0, 20)
      .mapToObj(i -> {
        String name = String.format("p%02d", i);
        Set<String> scopes = i % 5 == 0 && i % 10 != 0
            ? Set.of("team", "admin")
            : i % 3 == 0 ? Set.of("team") : Set.of();
        return prompt(name).withRequiredScopes(scopes);
      })
      .toList());

  private final Fixture resources = new Fixture();
  private final McpServer server =
      McpServer.builder().prompts(catalog).resources(resources).pageSize(4).build();
  private final StatelessEndpoint stateless = server.openStateless();
  private int nextId;

  @AfterEach
  void close() {
    server.close();
  }

  @Test
  void modernListsHoldOnlyVisiblePromptsInFullPagesAndArePrivate() {
    assertThat(walk(NOBODY, true))
        .containsExactly(
            "p01", "p02", "p04", "p07", "p08", "p10", "p11", "p13", "p14", "p16", "p17", "p19");
    assertThat(walk(TEAM, true))
        .containsExactly(
            "p00", "p01", "p02", "p03", "p04", "p06", "p07", "p08", "p09", "p10", "p11", "p12",
            "p13", "p14", "p16", "p17", "p18", "p19");
    assertThat(walk(BOTH, true)).hasSize(20);
    assertThat(walk(Caller.UNRESTRICTED, true)).hasSize(20);
  }

  @Test
  void legacyListsHoldOnlyVisiblePrompts() {
    assertThat(walk(NOBODY, false))
        .containsExactly(
            "p01", "p02", "p04", "p07", "p08", "p10", "p11", "p13", "p14", "p16", "p17", "p19");
    assertThat(walk(Caller.UNRESTRICTED, false)).hasSize(20);
  }

  @Test
  void theLastVisiblePromptEndsTheListingEvenWhenHiddenOnesFollow() {
    catalog.replaceAll(List.of(
        prompt("a"),
        prompt("b"),
        prompt("c"),
        prompt("d"),
        prompt("e").withRequiredScopes(Set.of("team")),
        prompt("f").withRequiredScopes(Set.of("team"))));
    JsonObject first = modernList(NOBODY, null);
    assertThat(names(first)).containsExactly("a", "b", "c", "d");
    assertThat(first.has("nextCursor")).isFalse();
    JsonObject team = modernList(TEAM, null);
    assertThat(names(team)).containsExactly("a", "b", "c", "d");
    assertThat(names(modernList(TEAM, team.string("nextCursor").orElseThrow())))
        .containsExactly("e", "f");
  }

  @Test
  void anUnrestrictedListingOfOnePageStaysPublic() {
    // Longer than a page, a listing depends on the client too (ClientQuirksTest): private.
    assertThat(modernList(Caller.UNRESTRICTED, null).string("cacheScope")).contains("private");
    catalog.replaceAll(List.of(prompt("a"), prompt("b")));
    assertThat(modernList(Caller.UNRESTRICTED, null).string("cacheScope")).contains("public");
    assertThat(modernList(NOBODY, null).string("cacheScope")).contains("private");
  }

  @Test
  void gettingOrCompletingAHiddenPromptAnswersExactlyLikeAnUnknownOne() {
    catalog.put(prompt("secret").withRequiredScopes(Set.of("team")));
    String get = "\"name\":\"secret\",\"arguments\":{\"topic\":\"x\"}";
    String complete =
        "\"ref\":{\"type\":\"ref/prompt\",\"name\":\"secret\"},\"argument\":{\"name\":\"topic\",\"value\":\"a\"}";
    ServerSession legacy = legacySession();
    String hiddenModernGet = modern(NOBODY, "prompts/get", get);
    String hiddenModernComplete = modern(NOBODY, "completion/complete", complete);
    String hiddenLegacyGet = legacy(legacy, NOBODY, "prompts/get", get);
    String hiddenLegacyComplete = legacy(legacy, NOBODY, "completion/complete", complete);
    assertThat(modern(TEAM, "prompts/get", get)).contains("\"result\"", "about x");
    assertThat(modern(TEAM, "completion/complete", complete)).contains("\"values\":[\"apple\"]");

    catalog.remove("secret");
    nextId -= 6; // the same ids again, so that whole messages compare
    assertThat(hiddenModernGet)
        .isEqualTo(modern(TEAM, "prompts/get", get))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":" + nextId + ",\"error\":{\"code\":-32602,"
            + "\"message\":\"Unknown prompt: 'secret'\"}}");
    assertThat(hiddenModernComplete).isEqualTo(modern(TEAM, "completion/complete", complete));
    assertThat(hiddenLegacyGet).isEqualTo(legacy(legacy, TEAM, "prompts/get", get));
    assertThat(hiddenLegacyComplete)
        .isEqualTo(legacy(legacy, TEAM, "completion/complete", complete));
    legacy.close();
  }

  @Test
  void aHiddenPromptThatMayBlockIsStillAnsweredFromMemory() {
    catalog.put(new PromptDefinition(
        Prompt.of("slow", null, List.of()),
        args -> {
          throw new AssertionError("never rendered");
        },
        null,
        Set.of("team")));
    Request get = Wire.modern(++nextId, "prompts/get", "\"name\":\"slow\"");
    assertThat(stateless.receive(new Incoming.Single(get), headers(get), NOBODY).mayBlock())
        .isFalse();
    assertThat(stateless.receive(new Incoming.Single(get), headers(get), TEAM).mayBlock())
        .isTrue();
  }

  @Test
  void resourcesOfHiddenPromptsAreListedReadAndTemplatedOnlyForCallersThatSeeThem() {
    assertThat(modern(NOBODY, "resources/list", ""))
        .contains("\"uri\":\"test://public\"")
        .doesNotContain("test://secret")
        .contains("\"cacheScope\":\"private\"");
    assertThat(modern(TEAM, "resources/list", "")).contains("test://public", "test://secret");
    assertThat(modern(NOBODY, "resources/templates/list", ""))
        .contains("test://open/{x}")
        .doesNotContain("test://team/{x}");
    assertThat(modern(TEAM, "resources/templates/list", ""))
        .contains("test://open/{x}", "test://team/{x}");
    assertThat(modern(Caller.UNRESTRICTED, "resources/list", ""))
        .contains("\"cacheScope\":\"public\"");

    String readSecret = "\"uri\":\"test://secret\"";
    ServerSession legacy = legacySession();
    String hiddenModern = modern(NOBODY, "resources/read", readSecret);
    String hiddenLegacy = legacy(legacy, NOBODY, "resources/read", readSecret);
    assertThat(modern(TEAM, "resources/read", readSecret)).contains("secret text");
    resources.remove("test://secret");
    nextId -= 3;
    assertThat(hiddenModern)
        .isEqualTo(modern(TEAM, "resources/read", readSecret))
        .contains("Resource not found");
    assertThat(hiddenLegacy).isEqualTo(legacy(legacy, TEAM, "resources/read", readSecret));
    legacy.close();
  }

  @Test
  void updatesOfAHiddenResourceReachOnlySessionsThatMaySeeIt() throws Exception {
    Recorder bobs = new Recorder();
    Recorder alices = new Recorder();
    ServerSession bob = legacySession(bobs);
    ServerSession alice = legacySession(alices);
    for (String uri : List.of("test://secret", "test://public")) {
      legacy(bob, NOBODY, "resources/subscribe", "\"uri\":\"" + uri + "\"");
      legacy(alice, TEAM, "resources/subscribe", "\"uri\":\"" + uri + "\"");
    }
    resources.updated("test://secret");
    resources.updated("test://public");
    // Deliveries are ordered on one thread: had the secret one reached bob, it would come first.
    assertThat(bobs.next()).contains("notifications/resources/updated", "test://public");
    assertThat(alices.next()).contains("test://secret");
    assertThat(alices.next()).contains("test://public");
    bob.close();
    alice.close();
  }

  @Test
  void aListenStreamHearsOnlyOfResourcesItsCallerMaySee() throws Exception {
    Recorder stream = new Recorder();
    Request listen = Wire.modern(
        "sub",
        "subscriptions/listen",
        "\"notifications\":{\"resourceSubscriptions\":" + "[\"test://secret\",\"test://public\"]}");
    Thread thread = Thread.ofVirtual()
        .start(() -> stateless
            .receive(new Incoming.Single(listen), headers(listen), NOBODY)
            .run(stream));
    assertThat(stream.next()).contains("notifications/subscriptions/acknowledged");
    resources.updated("test://secret");
    resources.updated("test://public");
    assertThat(stream.next())
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\","
                + "\"params\":{\"uri\":\"test://public\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"sub\"}}}");
    stateless.endStreams();
    assertThat(thread.join(Recorder.PATIENCE)).isTrue();
  }

  @Test
  void listChangedReachesOnlyCallersWhoMaySeeAPromptThatChanged() throws Exception {
    Recorder bobs = new Recorder();
    Recorder alices = new Recorder();
    ServerSession bob = legacySession(bobs);
    ServerSession alice = legacySession(alices);
    legacy(
        bob, NOBODY, "ping",
        ""); // a session's notifications follow the caller of its latest request
    legacy(alice, TEAM, "ping", "");
    Recorder stream = new Recorder();
    Request listen = Wire.modern(
        "sub", "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}");
    Thread thread = Thread.ofVirtual()
        .start(() -> stateless
            .receive(new Incoming.Single(listen), headers(listen), NOBODY)
            .run(stream));
    assertThat(stream.next()).contains("notifications/subscriptions/acknowledged");

    catalog.put(prompt("team-only").withRequiredScopes(Set.of("team")));
    assertThat(alices.next())
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}");
    catalog.put(prompt("everyone"));
    assertThat(alices.next()).contains("notifications/prompts/list_changed");
    assertThat(bobs.next()).contains("notifications/prompts/list_changed");
    assertThat(stream.next()).contains("notifications/prompts/list_changed");
    // Notifications go out in order on one thread: bob's only one is for the public prompt.
    assertThat(bobs.all()).filteredOn(m -> m.contains("list_changed")).hasSize(1);
    assertThat(stream.all()).filteredOn(m -> m.contains("list_changed")).hasSize(1);
    stateless.endStreams();
    assertThat(thread.join(Recorder.PATIENCE)).isTrue();
    bob.close();
    alice.close();
  }

  private List<String> walk(Caller caller, boolean modern) {
    ServerSession session = modern ? null : legacySession();
    List<String> names = new ArrayList<>();
    String cursor = null;
    do {
      JsonObject page = modern ? modernList(caller, cursor) : legacyList(session, caller, cursor);
      List<String> got = names(page);
      cursor = page.string("nextCursor").orElse(null);
      if (cursor != null) {
        assertThat(got).as("a page with a cursor after it is full").hasSize(4);
      }
      names.addAll(got);
    } while (cursor != null);
    if (session != null) {
      session.close();
    }
    return names;
  }

  private JsonObject modernList(Caller caller, @Nullable String cursor) {
    String text = modern(
        caller,
        "prompts/list",
        cursor == null ? "" : "\"cursor\":" + JsonCodec.write(new JsonString(cursor)));
    SchemaHarness.of(ProtocolVersion.V2026_07_28).assertConforms(text, "prompts/list");
    JsonObject result = ((JsonObject) JsonCodec.parse(text)).object("result").orElseThrow();
    boolean onePage = cursor == null && result.string("nextCursor").isEmpty();
    assertThat(result.string("cacheScope"))
        .contains(caller.unrestricted() && onePage ? "public" : "private");
    return result;
  }

  private JsonObject legacyList(ServerSession session, Caller caller, @Nullable String cursor) {
    String text = legacy(
        session,
        caller,
        "prompts/list",
        cursor == null ? "" : "\"cursor\":" + JsonCodec.write(new JsonString(cursor)));
    SchemaHarness.of(ProtocolVersion.V2025_11_25).assertConforms(text, "prompts/list");
    return ((JsonObject) JsonCodec.parse(text)).object("result").orElseThrow();
  }

  private static List<String> names(JsonObject result) {
    return result.array("prompts").orElseThrow().elements().stream()
        .map(p -> ((JsonObject) p).string("name").orElseThrow())
        .toList();
  }

  /**
   * A modern request through the stateless endpoint, as {@code caller}; the whole response as JSON
   * text.
   */
  private String modern(Caller caller, String method, String params) {
    Request r = Wire.modern(++nextId, method, params);
    Response response = stateless
        .receive(new Incoming.Single(r), headers(r), caller)
        .run(new Recorder())
        .response();
    return MessageCodec.encode(Objects.requireNonNull(response));
  }

  private String legacy(ServerSession session, Caller caller, String method, String params) {
    Request r = Wire.legacy(++nextId, method, params);
    Response response =
        session.receive(new Incoming.Single(r), caller).run(new Recorder()).response();
    return MessageCodec.encode(Objects.requireNonNull(response));
  }

  private ServerSession legacySession() {
    return legacySession(new Recorder());
  }

  private ServerSession legacySession(Recorder out) {
    ServerSession session = server.openSession(out);
    assertThat(session.handle(Wire.initialize("2025-11-25"), out))
        .isInstanceOf(ResultResponse.class);
    return session;
  }

  /** The headers a conforming HTTP client sends with {@code r}. */
  private static RequestHeaders headers(Request r) {
    String name = r.params().string("name").or(() -> r.params().string("uri")).orElse(null);
    return new RequestHeaders("2026-07-28", r.method(), name);
  }

  private static PromptDefinition prompt(String name) {
    Prompt prompt = Prompt.of(name, null, List.of(new PromptArgument("topic", null, null, false)));
    return new PromptDefinition(
        prompt,
        args -> GetPromptResult.of(
            null, List.of(PromptMessage.user("about " + args.getOrDefault("topic", "")))),
        (argument, value, context) -> new Completion(List.of("apple"), null, false));
  }

  /** Two resources and two templates; "secret" and the "team" template need the "team" scope. */
  private static final class Fixture implements ResourceProvider {
    private final Map<String, Resource> all = new ConcurrentSkipListMap<>(Map.of(
        "test://public", resource("test://public"), "test://secret", resource("test://secret")));
    private volatile @Nullable Listener listener;

    void remove(String uri) {
      all.remove(uri);
    }

    void updated(String uri) {
      Listener l = listener;
      if (l != null) {
        l.updated(uri);
      }
    }

    @Override
    public List<Resource> resources() {
      return List.copyOf(all.values());
    }

    @Override
    public List<ResourceTemplate> templates() {
      return List.of(template("test://open/{x}"), template("test://team/{x}"));
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      return all.containsKey(uri)
          ? Optional.of(List.of(new TextResourceContents(
              uri, "text/plain", uri.substring("test://".length()) + " text", null)))
          : Optional.empty();
    }

    @Override
    public boolean visible(Caller caller, String uri) {
      return !uri.contains("secret") || caller.permits(Set.of("team"));
    }

    @Override
    public boolean visible(Caller caller, ResourceTemplate template) {
      return !template.uriTemplate().contains("team") || caller.permits(Set.of("team"));
    }

    @Override
    public AutoCloseable onChange(Listener listener) {
      this.listener = listener;
      return () -> this.listener = null;
    }

    private static Resource resource(String uri) {
      return Resource.of(uri, uri.substring("test://".length()), null, "text/plain");
    }

    private static ResourceTemplate template(String uriTemplate) {
      return ResourceTemplate.of(uriTemplate, "t", null, "text/plain");
    }
  }
}
