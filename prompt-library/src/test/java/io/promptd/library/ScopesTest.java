package io.promptd.library;

import static io.promptd.library.Files2.write;
import static io.promptd.library.HotReloadTest.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.internal.index.FolderDefaults;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scopes} in front matter and in {@code _folder.yaml}: the nearest folder default applies to
 * files that set none, a file's own list (even an empty one) overrides it; bad scopes are errors at
 * their line; the folder file is re-read on change and is never served.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScopesTest {
  private static final Caller TEAM = Caller.authenticated("alice", Set.of("team"));
  private static final Caller NOBODY = Caller.authenticated("bob", Set.of());

  @TempDir
  Path root;

  private final FileTime past = FileTime.from(Instant.now().minus(Duration.ofHours(1)));

  @Test
  void theNearestFolderDefaultAppliesUnlessTheFileSetsItsOwn() throws IOException {
    write(root, "_folder.yaml", "scopes: [team]\n");
    write(root, "inherits.prompt.md", prompt(""));
    write(root, "public.prompt.md", prompt("scopes: []\n"));
    write(root, "own.prompt.md", prompt("scopes: [own, 'api://promptd/Prompts.Read']\n"));
    write(root, "admin/_folder.yaml", "# admins only\nscopes:\n  - admin\n  - prompts:write\n");
    write(root, "admin/deep/nested.prompt.md", prompt(""));
    write(root, "quiet/_folder.yaml", "# sets nothing: the root's default goes on\n");
    write(root, "quiet/q.prompt.md", prompt(""));
    write(root, "admin/.claude/commands/cmd.md", "Run it\n");
    write(
        root,
        "admin/.claude/commands/mine.md",
        "---\ndescription: d\nscopes: [mine]\n---\nRun mine\n");
    write(root, ".github/prompts/vs.prompt.md", "---\ndescription: d\nscopes: []\n---\nRun vs\n");
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(scopes(library))
          .isEqualTo(Map.of(
              "inherits", Set.of("team"),
              "public", Set.of(),
              "own", Set.of("own", "api://promptd/Prompts.Read"),
              "admin-deep-nested", Set.of("admin", "prompts:write"),
              "cmd", Set.of("admin", "prompts:write"),
              "mine", Set.of("mine"),
              "vs", Set.of(),
              "quiet-q", Set.of("team")));
    }
  }

  @Test
  void bothYamlReadersGiveTheSameScopes() throws IOException {
    // The first three take the fast reader's path; a comment, quotes or a colon send the others to
    // SnakeYAML.
    write(root, "flow.prompt.md", prompt("scopes: [a, b]\n"));
    write(root, "block.prompt.md", prompt("scopes:\n  - a\n  - b\n"));
    write(root, "one.prompt.md", prompt("scopes: a\n"));
    write(root, "commented.prompt.md", prompt("scopes: [a, b] # both\n"));
    write(root, "quoted.prompt.md", prompt("scopes: [\"a\", 'b']\n"));
    write(root, "colon.prompt.md", prompt("scopes: [prompts:read]\n"));
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      assertThat(library.diagnostics()).isEmpty();
      Map<String, Set<String>> scopes = scopes(library);
      assertThat(scopes.get("flow"))
          .isEqualTo(Set.of("a", "b"))
          .isEqualTo(scopes.get("block"))
          .isEqualTo(scopes.get("commented"))
          .isEqualTo(scopes.get("quoted"));
      assertThat(scopes.get("one")).isEqualTo(Set.of("a"));
      assertThat(scopes.get("colon")).isEqualTo(Set.of("prompts:read"));
    }
  }

  @Test
  void badScopesAreErrorsAtTheirLineAndABrokenFolderFileHidesWhatIsUnderIt() throws IOException {
    write(root, "space.prompt.md", prompt("scopes: [ok, read write]\n"));
    write(root, "quote.prompt.md", prompt("scopes:\n  - fine\n  - 'say\"hi'\n"));
    write(root, "empty.prompt.md", prompt("scopes:\n"));
    write(root, "map.prompt.md", prompt("scopes: {a: b}\n"));
    write(root, "locked/_folder.yaml", "scopes: [team\n");
    write(root, "locked/inside.prompt.md", prompt(""));
    write(root, "typo/_folder.yaml", "scope: [team]\n");
    write(root, "typo/t.prompt.md", prompt(""));
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      assertThat(Files2.formatted(library))
          .containsExactly(
              root.resolve("empty.prompt.md")
                  + ":3: error: 'scopes' must be a list of scopes, such as [prompts.read] ([]"
                  + " makes it public)",
              root.resolve("locked/_folder.yaml")
                  + ":1: warning: until the errors are fixed, the prompts and resources"
                  + " under this folder are hidden from every caller that presents an OAuth token",
              root.resolve("locked/_folder.yaml")
                  + ":2: error: invalid _folder.yaml: expected ',' or ']', but got"
                  + " <stream end>",
              root.resolve("map.prompt.md")
                  + ":3: error: 'scopes' must be a list of scopes, such as [prompts.read] ([]"
                  + " makes it public)",
              root.resolve("quote.prompt.md")
                  + ":5: error: scope 'say\"hi' has a character a scope cannot have"
                  + " ('\"'): scopes are printable ASCII without spaces, '\"' or '\\'",
              root.resolve("space.prompt.md")
                  + ":3: error: scope 'read write' contains a space; list each scope on its"
                  + " own, as in [read, write]",
              root.resolve("typo/_folder.yaml") + ":1: warning: unknown folder file key 'scope'");
      assertThat(scopes(library))
          .isEqualTo(Map.of("locked-inside", FolderDefaults.UNREADABLE, "typo-t", Set.of()));
      assertThat(library.catalog().get("locked-inside").orElseThrow().requiredScopes())
          .allMatch(s -> s.contains(" ")); // no token can grant it
    }
  }

  @Test
  void editingTheFolderFileReEvaluatesThePromptsUnderIt() throws IOException {
    write(root, "team/_folder.yaml", "scopes: [team]\n");
    write(root, "team/a.prompt.md", prompt(""));
    write(root, "team/own.prompt.md", prompt("scopes: [own]\n"));
    write(root, "b.prompt.md", prompt(""));
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      library.watch();
      assertThat(scopes(library).get("team-a")).isEqualTo(Set.of("team"));
      write(root, "team/_folder.yaml", "scopes: [other, more]\n");
      eventually(() -> scopes(library).get("team-a").equals(Set.of("other", "more")));
      assertThat(scopes(library).get("team-own")).isEqualTo(Set.of("own"));
      write(root, "_folder.yaml", "scopes: [everyone]\n");
      eventually(() -> scopes(library).get("b").equals(Set.of("everyone")));
      assertThat(scopes(library).get("team-a")).isEqualTo(Set.of("other", "more"));
      Files.delete(root.resolve("team/_folder.yaml"));
      eventually(() -> scopes(library).get("team-a").equals(Set.of("everyone")));
      write(root, "_folder.yaml", "scopes: [broken\n");
      eventually(() -> !library.diagnostics().isEmpty());
      assertThat(scopes(library).get("b"))
          .as("the last good version stays")
          .isEqualTo(Set.of("everyone"));
      Files.delete(root.resolve("_folder.yaml"));
      eventually(() -> scopes(library).get("b").isEmpty());
      assertThat(library.diagnostics()).isEmpty();
    }
  }

  @Test
  void theIndexKeepsDeclaredScopesAndTakesFolderDefaultsFromTheFolderFiles(@TempDir Path cache)
      throws IOException {
    LibraryOptions options = LibraryOptions.defaults().withCacheDirectory(cache);
    write(root, "_folder.yaml", "scopes: [team]\n");
    write(root, "inherits.prompt.md", prompt(""));
    write(root, "public.prompt.md", prompt("scopes: []\n"));
    write(root, "own.prompt.md", prompt("scopes: [a, b]\n"));
    settle();
    Map<String, Set<String>> expected =
        Map.of("inherits", Set.of("team"), "public", Set.of(), "own", Set.of("a", "b"));
    try (Library first = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(first.restoredFromIndex()).isZero();
      assertThat(scopes(first)).isEqualTo(expected);
    }
    try (Library again = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(again.restoredFromIndex()).isEqualTo(3);
      assertThat(scopes(again)).isEqualTo(expected);
    }
    Files.setLastModifiedTime(write(root, "_folder.yaml", "scopes: [changed]\n"), past);
    try (Library after = Library.open(LibrarySource.folders(List.of(root)), options)) {
      assertThat(after.restoredFromIndex()).as("prompt files are unchanged").isEqualTo(3);
      assertThat(scopes(after))
          .isEqualTo(
              Map.of("inherits", Set.of("changed"), "public", Set.of(), "own", Set.of("a", "b")));
    }
  }

  @Test
  void resourcesFollowTheirScopesOrTheVisiblePromptsThatAttachThem() throws IOException {
    write(root, "notes/shared.md", "# shared\n");
    write(root, "notes/only-team.md", "# team\n");
    write(
        root, "public.prompt.md", prompt("scopes: []\n", "::: link promptd:///notes/shared.md S"));
    write(
        root,
        "team.prompt.md",
        prompt(
            "scopes: [team]\n",
            "::: link promptd:///notes/shared.md S\n::: link promptd:///notes/only-team.md T"));
    write(
        root,
        "secret.resource.md",
        "---\nuri: test://secret\ndescription: d\nscopes: [team]\n---\nsecret\n");
    write(root, "open.resource.md", "---\nuri: test://open\ndescription: d\n---\nopen\n");
    write(root, "t/_folder.yaml", "scopes: [team]\n");
    write(
        root,
        "t/item.resource.md",
        "---\nuriTemplate: test://items/{id}\ndescription: d\n---\nitem {{id}}\n");
    write(root, "link.prompt.md", prompt("", "::: link promptd:///_folder.yaml F"));
    try (Library library =
        Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults())) {
      assertThat(library.resources())
          .extracting(Resource::uri)
          .containsExactly(
              "promptd:///notes/only-team.md",
              "promptd:///notes/shared.md",
              "test://open",
              "test://secret");
      assertThat(visible(library, NOBODY))
          .containsExactly("promptd:///notes/shared.md", "test://open");
      assertThat(visible(library, TEAM))
          .containsExactly(
              "promptd:///notes/only-team.md",
              "promptd:///notes/shared.md",
              "test://open",
              "test://secret");
      ResourceTemplate items = library.templates().getFirst();
      assertThat(library.visible(NOBODY, items)).isFalse();
      assertThat(library.visible(TEAM, items)).isTrue();
      assertThat(library.visible(NOBODY, "test://items/7")).isFalse();
      assertThat(library.visible(TEAM, "test://items/7")).isTrue();
      assertThat(library.visible(Caller.UNRESTRICTED, "test://secret")).isTrue();
      assertThat(library.read("test://secret", NOBODY)).isEmpty();
      assertThat(library.read("promptd:///notes/only-team.md", NOBODY)).isEmpty();
      assertThat(library.read("test://secret", TEAM)).isPresent();
      assertThat(library.read("promptd:///notes/shared.md", NOBODY)).isPresent();
      assertThat(library.read("promptd:///_folder.yaml"))
          .as("the folder file is never served")
          .isEmpty();
    }
  }

  @Test
  void aServerOverTheLibraryShowsEachCallerItsOwnView() throws IOException {
    write(root, "_folder.yaml", "scopes: [team]\n");
    write(root, "hidden.prompt.md", prompt("", "::: link promptd:///notes/team.md T"));
    write(root, "open.prompt.md", prompt("scopes: []\n", "::: link promptd:///notes/open.md O"));
    write(root, "notes/team.md", "team\n");
    write(root, "notes/open.md", "open\n");
    try (Library library =
            Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults());
        McpServer server =
            McpServer.builder().prompts(library.catalog()).resources(library).build()) {
      StatelessEndpoint endpoint = server.openStateless();
      assertThat(call(endpoint, NOBODY, 1, "prompts/list", ""))
          .contains("\"name\":\"open\"")
          .doesNotContain("hidden");
      assertThat(call(endpoint, TEAM, 2, "prompts/list", ""))
          .contains("\"name\":\"hidden\"", "\"name\":\"open\"");
      assertThat(call(endpoint, NOBODY, 3, "resources/list", ""))
          .contains("promptd:///notes/open.md")
          .doesNotContain("team.md");
      String hidden = call(endpoint, NOBODY, 4, "prompts/get", "\"name\":\"hidden\"");
      String hiddenRead =
          call(endpoint, NOBODY, 5, "resources/read", "\"uri\":\"promptd:///notes/team.md\"");
      assertThat(hidden)
          .as("as for a prompt that does not exist")
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32602,"
              + "\"message\":\"Unknown prompt: 'hidden'\"}}");
      assertThat(hiddenRead)
          .as("as for a file nothing attaches")
          .isEqualTo(
              call(endpoint, NOBODY, 5, "resources/read", "\"uri\":\"promptd:///notes/none.md\"")
                  .replace("none.md", "team.md"));
      assertThat(call(endpoint, TEAM, 6, "resources/read", "\"uri\":\"promptd:///notes/team.md\""))
          .contains("team\\n");
    }
  }

  /**
   * One modern request as {@code caller}, with the headers a conforming client sends; the response
   * as JSON text.
   */
  private static String call(
      StatelessEndpoint endpoint, Caller caller, int id, String method, String params) {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    String text = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method
        + "\",\"params\":{" + params + (params.isEmpty() ? "" : ",") + meta + "}}";
    Incoming in = MessageCodec.decode(text);
    Request request = (Request) ((Incoming.Single) in).message();
    String name =
        request.params().string("name").or(() -> request.params().string("uri")).orElse(null);
    Response response = endpoint
        .receive(in, new RequestHeaders("2026-07-28", method, name), caller)
        .run(Outbound.discard())
        .response();
    return MessageCodec.encode(Objects.requireNonNull(response));
  }

  private static List<String> visible(Library library, Caller caller) {
    return library.resources().stream()
        .map(Resource::uri)
        .filter(uri -> library.visible(caller, uri))
        .toList();
  }

  private static Map<String, Set<String>> scopes(Library library) {
    Map<String, Set<String>> out = new TreeMap<>();
    for (PromptDefinition d : library.catalog().all()) {
      out.put(d.name(), d.requiredScopes());
    }
    return out;
  }

  private static String prompt(String frontMatter) {
    return prompt(frontMatter, "Body");
  }

  private static String prompt(String frontMatter, String body) {
    return "---\ndescription: d\n" + frontMatter + "---\n" + body + "\n";
  }

  /** Sets every file's modification time an hour back, so that the index trusts them. */
  private void settle() throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(f, past);
      }
    }
  }
}
