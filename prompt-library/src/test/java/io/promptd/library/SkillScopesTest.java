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
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A skill under a {@code _folder.yaml} with scopes, served by a real server: a caller without them
 * finds it nowhere, answered exactly as a skill that does not exist, and hears nothing when it
 * changes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SkillScopesTest {
  private static final Caller TEAM = Caller.authenticated("bob", Set.of("team"));
  private static final Caller ADMIN = Caller.authenticated("alice", Set.of("admin"));

  @TempDir
  Path root;

  private Library library;
  private McpServer server;

  @BeforeEach
  void start() throws IOException {
    write(root, "admin/_folder.yaml", "scopes: [admin]\n");
    write(root, "admin/keys/SKILL.md", "---\nname: keys\ndescription: Keys.\n---\nK\n");
    write(root, "admin/keys/notes/a.md", "a\n");
    write(root, "open/SKILL.md", "---\nname: open\ndescription: Open.\n---\nO\n");
    library = Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults());
    library.watch();
    server = McpServer.builder()
        .prompts(library.catalog())
        .resources(library)
        .skills(library.skillProvider())
        .build();
  }

  @AfterEach
  void stop() {
    server.close();
    library.close();
  }

  @Test
  void aHiddenSkillIsUnknownEverywhere() {
    assertThat(modern(TEAM, "skills/list", ""))
        .contains("skill://open/SKILL.md")
        .doesNotContain("admin");
    assertThat(modern(ADMIN, "skills/list", "")).contains("skill://admin/keys/SKILL.md");
    assertThat(modern(TEAM, "resources/list", ""))
        .contains("skill://open/SKILL.md")
        .doesNotContain("admin");
    assertThat(modern(ADMIN, "resources/list", "")).contains("skill://admin/keys/notes/a.md");
    for (String[] call : List.of(
        new String[] {"skills/get", "skill://admin/keys/SKILL.md", "skill://admin/nope/SKILL.md"},
        new String[] {
          "resources/read", "skill://admin/keys/notes/a.md", "skill://admin/keys/notes/b.md"
        },
        new String[] {"resources/directory/read", "skill://admin/keys", "skill://admin/nope"})) {
      String hidden = modern(TEAM, call[0], "\"uri\":\"" + call[1] + "\"");
      String missing = modern(TEAM, call[0], "\"uri\":\"" + call[2] + "\"");
      assertThat(hidden).as(call[0]).contains("\"code\":-32602");
      assertThat(hidden.replace(call[1], "URI"))
          .as(call[0])
          .isEqualTo(missing.replace(call[2], "URI"));
      assertThat(modern(ADMIN, call[0], "\"uri\":\"" + call[1] + "\""))
          .as(call[0])
          .contains("\"result\"");
    }
  }

  @Test
  void anEditOfAHiddenSkillIsNewsOnlyToWhoMaySeeIt() throws Exception {
    Inbox bobs = new Inbox();
    Inbox alices = new Inbox();
    session(bobs, TEAM);
    session(alices, ADMIN);
    write(root, "admin/keys/notes/a.md", "changed\n");
    assertThat(alices.next()).contains("notifications/resources/list_changed");
    write(root, "open/SKILL.md", "---\nname: open\ndescription: Open.\n---\nO2\n");
    assertThat(alices.next()).contains("notifications/resources/list_changed");
    // Notifications go out in order on one thread: bob's first one is for the open skill.
    assertThat(bobs.next()).contains("notifications/resources/list_changed");
    assertThat(bobs.received).isEmpty();
  }

  private String modern(Caller caller, String method, String members) {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    String text = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":{"
        + (members.isEmpty() ? "" : members + ",") + meta + "}}";
    ServerSession session = server.openSession(Outbound.discard());
    var response = session
        .receive(MessageCodec.decode(text), caller)
        .run(Outbound.discard())
        .response();
    return MessageCodec.encode(Objects.requireNonNull(response));
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

  /** The resources notifications the server sends a session. */
  private static final class Inbox implements Outbound {
    final LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>();

    @Override
    public void send(Message message) {
      String text = MessageCodec.encode(message);
      if (text.contains("notifications/resources/")) {
        received.add(text);
      }
    }

    String next() throws InterruptedException {
      String m = received.poll(20, TimeUnit.SECONDS);
      assertThat(m).as("a notification within 20 s").isNotNull();
      return m;
    }
  }
}
