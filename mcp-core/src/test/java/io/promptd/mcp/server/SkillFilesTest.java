package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.protocol.SkillResource;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.testing.McpWire;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link SkillProvider} that serves its own files ({@link SkillProvider#files()}): the server
 * lists and reads them beside the author's resources, in both eras, the skill files winning a URI
 * both list, and follows both providers' changes; one that does not leaves the resources to the
 * author's provider alone.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SkillFilesTest {
  private static final String DIGEST = "sha256:" + "0123456789abcdef".repeat(4);

  /**
   * A provider of {@code uris}, each read as the text {@code who}; it keeps the listeners it is
   * given.
   */
  private static final class Fixed implements ResourceProvider {
    final List<String> uris;
    final String who;
    final List<Listener> listeners = new CopyOnWriteArrayList<>();

    Fixed(String who, String... uris) {
      this.who = who;
      this.uris = List.of(uris);
    }

    @Override
    public List<Resource> resources() {
      return uris.stream()
          .map(u -> new Resource(u, u, null, null, "text/plain", null, null, List.of(), null))
          .toList();
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      return uris.contains(uri)
          ? Optional.of(List.of(new TextResourceContents(uri, "text/plain", who, null)))
          : Optional.empty();
    }

    @Override
    public AutoCloseable onChange(Listener listener) {
      listeners.add(listener);
      return () -> listeners.remove(listener);
    }
  }

  private static SkillProvider skills(ResourceProvider files) {
    return new SkillProvider() {
      @Override
      public List<Skill> skills() {
        return List.of(new Skill(
            "skill://git/SKILL.md",
            (JsonObject) JsonCodec.parse("{\"name\":\"git\",\"description\":\"Git\"}"),
            List.of(new SkillResource("skill://git/SKILL.md", DIGEST, 3))));
      }

      @Override
      public ResourceProvider files() {
        return files;
      }
    };
  }

  @Test
  void theSkillFilesAreListedAndReadBesideTheAuthorsResources() throws Exception {
    Fixed own = new Fixed("own", "docs://a", "skill://git/SKILL.md");
    Fixed files = new Fixed("skill", "skill://git/SKILL.md", "skill://git/notes.md");
    McpServer server = McpServer.builder().resources(own).skills(skills(files)).build();
    ServerSession session = server.openSession(m -> {});
    String listed = write(session, McpWire.modern(1, "resources/list", "", "t"));
    assertThat(listed.split("\"uri\":\"skill://git/SKILL.md\"", -1)).hasSize(2);
    assertThat(listed).contains("docs://a", "skill://git/notes.md");
    assertThat(write(
            session, McpWire.modern(2, "resources/read", "\"uri\":\"skill://git/SKILL.md\"", "t")))
        .contains("\"text\":\"skill\"");
    assertThat(write(session, McpWire.modern(3, "resources/read", "\"uri\":\"docs://a\"", "t")))
        .contains("\"text\":\"own\"");

    // A legacy session, which has no Skills extension, sees the files as resources too.
    write(
        session,
        McpWire.request(
            4,
            "initialize",
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"));
    assertThat(write(session, McpWire.request(5, "resources/list", "{}")))
        .contains("skill://git/notes.md", "docs://a");

    assertThat(own.listeners).hasSize(1);
    assertThat(files.listeners).hasSize(1);
    server.close();
    assertThat(own.listeners).isEmpty();
    assertThat(files.listeners).isEmpty();
  }

  @Test
  void aProviderWithoutFilesLeavesTheResourcesToTheAuthors() {
    Fixed own = new Fixed("own", "skill://git/SKILL.md");
    SkillProvider plain = () -> skills(own).skills();
    McpServer server = McpServer.builder().resources(own).skills(plain).build();
    assertThat(server.context().resources).isSameAs(own);
    assertThat(McpServer.builder().skills(plain).build().context().resources).isNull();
  }

  private static String write(ServerSession session, String request) {
    Request parsed = (Request) ((Incoming.Single) MessageCodec.decode(request)).message();
    Response r = session.handle(parsed, m -> {});
    assertThat(r).as(request).isInstanceOf(ResultResponse.class);
    return JsonCodec.write(((ResultResponse) r).result());
  }
}
