package io.promptd.library;

import static io.promptd.library.Files2.write;
import static io.promptd.library.ResourceHotReloadTest.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A folder with resource files served through a real {@link McpServer}, read by a legacy and a
 * modern request.
 */
class ResourceServerTest {
  private static final String MODERN_META =
      "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

  /** What a modern result carries besides its payload (the version is the build's). */
  private String modernTail() {
    return ",\"ttlMs\":10000,\"cacheScope\":\"private\",\"resultType\":\"complete\","
        + "\"_meta\":{\"io.modelcontextprotocol/serverInfo\":{\"name\":\"promptd\",\"title\":\"promptd\","
        + "\"version\":\"" + server.serverInfo().version() + "\"}}";
  }

  @TempDir
  Path root;

  Library library;
  McpServer server;
  ServerSession session;
  final List<String> pushed = new CopyOnWriteArrayList<>();
  int nextId = 1;

  @BeforeEach
  void serve() throws IOException {
    write(
        root,
        "resources/guide.resource.md",
        "---\nuri: docs://guide\ndescription: The guide\n---\nBe kind.\n");
    write(root, "resources/item.resource.md", """
        ---
        uriTemplate: items://{id}
        description: One item
        mimeType: application/json
        ---
        {"id":"{{id}}"}
        """);
    write(root, "notes/faq.md", "# FAQ\n");
    write(
        root,
        "ask.prompt.md",
        "---\ndescription: Ask\n---\nRead the FAQ.\n::: link promptd:///notes/faq.md FAQ\n");
    library = Library.open(LibrarySource.folders(List.of(root)), LibraryOptions.defaults());
    library.watch();
    server = McpServer.builder()
        .serverInfo(new Implementation("promptd", "promptd", McpServer.libraryVersion()))
        .prompts(library.catalog())
        .resources(library)
        .build();
    session = server.openSession(message -> pushed.add(MessageCodec.encode(message)));
  }

  @AfterEach
  void stop() {
    session.close();
    server.close();
    library.close();
  }

  @Test
  void aLegacySessionListsReadsAndHearsAboutUpdates() {
    call(
        "initialize",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}");
    notify("notifications/initialized");
    assertThat(call("resources/list", "{}")).isEqualTo(result(2, """
        {"resources":[\
        {"uri":"docs://guide","name":"guide","description":"The guide","mimeType":"text/plain","size":8},\
        {"uri":"promptd:///notes/faq.md","name":"faq.md","description":"Attached by ask.prompt.md",\
        "mimeType":"text/markdown"}]}"""));
    assertThat(call("resources/templates/list", "{}")).isEqualTo(result(3, """
        {"resourceTemplates":[{"uriTemplate":"items://{id}","name":"item","description":"One item",\
        "mimeType":"application/json"}]}"""));
    assertThat(call("resources/read", "{\"uri\":\"docs://guide\"}")).isEqualTo(result(4, """
        {"contents":[{"uri":"docs://guide","mimeType":"text/plain","text":"Be kind."}]}"""));
    assertThat(call("resources/read", "{\"uri\":\"items://42\"}")).isEqualTo(result(5, """
        {"contents":[{"uri":"items://42","mimeType":"application/json","text":"{\\"id\\":\\"42\\"}"}]}"""));

    String link = call("prompts/get", "{\"name\":\"ask\"}");
    assertThat(link)
        .contains(
            "{\"type\":\"resource_link\",\"uri\":\"promptd:///notes/faq.md\",\"name\":\"FAQ\"");
    assertThat(call("resources/read", "{\"uri\":\"promptd:///notes/faq.md\"}"))
        .isEqualTo(result(7, """
        {"contents":[{"uri":"promptd:///notes/faq.md","mimeType":"text/markdown","text":"# FAQ\\n"}]}"""));
    assertThat(call("resources/read", "{\"uri\":\"docs://nothing\"}"))
        .contains("\"error\":{\"code\":-32002");

    assertThat(call("resources/subscribe", "{\"uri\":\"docs://guide\"}"))
        .isEqualTo(result(9, "{}"));
    write(
        root,
        "resources/guide.resource.md",
        "---\nuri: docs://guide\ndescription: The guide\n---\nBe kinder.\n");
    eventually(
        () -> pushed.contains(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"docs://guide\"}}"));
    assertThat(call("resources/read", "{\"uri\":\"docs://guide\"}"))
        .contains("\"text\":\"Be kinder.\"");
  }

  @Test
  void aModernRequestReadsWithoutASession() {
    assertThat(call("resources/read", "{\"uri\":\"items://7\"," + MODERN_META + "}"))
        .isEqualTo(result(1, """
        {"contents":[{"uri":"items://7","mimeType":"application/json","text":"{\\"id\\":\\"7\\"}"}]\
        """ + modernTail() + "}"));
    assertThat(call("resources/read", "{\"uri\":\"docs://guide\"," + MODERN_META + "}"))
        .isEqualTo(result(2, """
        {"contents":[{"uri":"docs://guide","mimeType":"text/plain","text":"Be kind."}]\
        """ + modernTail() + "}"));
  }

  private static String result(int id, String json) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + json + "}";
  }

  private String call(String method, String params) {
    String text = "{\"jsonrpc\":\"2.0\",\"id\":" + nextId++ + ",\"method\":\"" + method
        + "\",\"params\":" + params + "}";
    Request request = (Request) single(text);
    Response response = session.handle(request, Outbound.discard());
    assertThat(response).as("response to %s", text).isNotNull();
    return MessageCodec.encode(response);
  }

  private void notify(String method) {
    session.handle((Notification) single("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\"}"));
  }

  private static Message single(String text) {
    return ((Incoming.Single) MessageCodec.decode(text)).message();
  }
}
