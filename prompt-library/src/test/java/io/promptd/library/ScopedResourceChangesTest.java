package io.promptd.library;

import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server over a watched library sends {@code notifications/resources/list_changed} for an edit of
 * a resource that needs scopes only to the sessions whose caller holds them; an edit of a resource
 * everyone may see reaches everyone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScopedResourceChangesTest {
  private static final String LIST_CHANGED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}";
  private static final Caller TEAM = Caller.authenticated("alice", Set.of("team"));
  private static final Caller NOBODY = Caller.authenticated("bob", Set.of());

  @TempDir
  Path root;

  private Library library;
  private McpServer server;
  private final Inbox bobs = new Inbox();
  private final Inbox alices = new Inbox();

  @BeforeEach
  void start() throws IOException {
    write(root, "secret.resource.md", resource("test://secret", "scopes: [team]\n"));
    write(root, "open.resource.md", resource("test://open", ""));
    library = Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults());
    library.watch();
    server = McpServer.builder().prompts(library.catalog()).resources(library).build();
    session(bobs, NOBODY);
    session(alices, TEAM);
  }

  @AfterEach
  void stop() {
    server.close();
    library.close();
  }

  @Test
  void anEditOfAScopedResourceReachesOnlyCallersWithTheScope() throws Exception {
    write(root, "secret.resource.md", resource("test://secret", "scopes: [team]\ntitle: New\n"));
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    write(root, "open.resource.md", resource("test://open", "title: New\n"));
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    // Notifications go out in order on one thread: bob's first one is for the open resource.
    assertThat(bobs.next()).isEqualTo(LIST_CHANGED);
    assertThat(bobs.received).isEmpty();
  }

  @Test
  void aScopedResourceAddedOrRemovedIsNewsOnlyToCallersWithTheScope() throws Exception {
    write(root, "more.resource.md", resource("test://more", "scopes: [team]\n"));
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    Files.delete(root.resolve("secret.resource.md"));
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    write(root, "late.resource.md", resource("test://late", ""));
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    assertThat(bobs.next()).isEqualTo(LIST_CHANGED);
    assertThat(bobs.received).isEmpty();
  }

  @Test
  void aFileNewlyAttachedByAScopedPromptIsNewsOnlyToCallersWhoMaySeeThePrompt() throws Exception {
    write(root, "notes/x.md", "x\n");
    write(
        root,
        "team.prompt.md",
        "---\ndescription: d\nscopes: [team]\n---\n::: link promptd:///notes/x.md X\n");
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    write(root, "late.resource.md", resource("test://late", ""));
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    assertThat(bobs.next()).isEqualTo(LIST_CHANGED);
    assertThat(bobs.received).isEmpty();
  }

  @Test
  void aResourceMadePublicIsNewsToEveryone() throws Exception {
    write(root, "secret.resource.md", resource("test://secret", "scopes: []\n"));
    assertThat(bobs.next()).isEqualTo(LIST_CHANGED);
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
  }

  /** An initialized legacy session whose requests come from {@code caller}. */
  private void session(Inbox out, Caller caller) {
    ServerSession session = server.openSession(out);
    session
        .receive(
            MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}"),
            caller)
        .run(Outbound.discard());
  }

  private static String resource(String uri, String frontMatter) {
    return "---\nuri: " + uri + "\ndescription: d\n" + frontMatter + "---\nbody\n";
  }

  /**
   * The resources' {@code list_changed} the server sends a session (the prompts' are not the point
   * here).
   */
  private static final class Inbox implements Outbound {
    final LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();

    @Override
    public void send(Message message) {
      String text = MessageCodec.encode(message);
      if (text.contains("notifications/resources/")) {
        received.add(text);
      }
    }

    /** The next message, waiting up to 20 s: file events can be slow on a busy machine. */
    String next() throws InterruptedException {
      String m = received.poll(20, TimeUnit.SECONDS);
      assertThat(m).as("a notification within 20 s").isNotNull();
      return m;
    }
  }
}
