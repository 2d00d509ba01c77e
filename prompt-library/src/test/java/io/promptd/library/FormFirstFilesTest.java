package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Form-first from prompt files: the front matter turns it off per prompt ({@code formFirst: false},
 * and {@code elicit: false}, which never asks) and per argument ({@code formFirst: false}), and
 * sets whether given free text is shown for checking ({@code confirm}); the settings travel in the
 * prompt's {@code _meta}, so a listing needs no parse, and the linter knows the keys.
 */
class FormFirstFilesTest {
  private static final String FORM = "{\"elicitation\":{\"form\":{}}}";

  @TempDir
  Path root;

  private void library() {
    write(root, "open.prompt.md", prompt(""));
    write(root, "closed.prompt.md", prompt("formFirst: false\n"));
    write(root, "never.prompt.md", prompt("elicit: false\n"));
    write(root, "mixed.prompt.md", """
        ---
        description: One argument keeps its flag
        arguments:
          - name: text
            required: true
            confirm: true
          - name: id
            required: true
            formFirst: false
        ---
        {{text}} {{id}}
        """);
    write(root, "checked.prompt.md", prompt("confirm: true\n"));
  }

  private static String prompt(String settings) {
    return "---\ndescription: Says it\n" + settings
        + "arguments:\n  - name: text\n    required: true\n---\n" + "TEXT=[{{text}}]\n";
  }

  @Test
  void theFrontMatterTurnsItOffPerPromptAndPerArgument() {
    library();
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      assertThat(library.diagnostics()).as("the keys are known").isEmpty();
      ServerSession session = server.openSession(Outbound.discard());
      Map<String, String> withForms = required(call(session, "prompts/list", "{}", FORM, "x"));
      assertThat(withForms)
          .containsExactly(
              Map.entry("checked", "[false]"),
              Map.entry("closed", "[true]"),
              Map.entry("mixed", "[false, true]"),
              Map.entry("never", "[true]"),
              Map.entry("open", "[false]"));
      Map<String, String> without = required(call(session, "prompts/list", "{}", "{}", "x"));
      assertThat(without.values()).containsOnly("[true]", "[true, true]");
      // The settings are published for any client (and the web catalog) to read.
      assertThat(call(session, "prompts/list", "{}", "{}", "x"))
          .contains(
              "\"io.promptd/form\":{\"elicit\":false}",
              "\"io.promptd/form\":{\"first\":false}",
              "\"io.promptd/form\":{\"confirm\":true}",
              "\"id\":{\"formFirst\":false}",
              "\"text\":{\"confirm\":true}");
    }
  }

  @Test
  void confirmInTheFrontMatterShowsGivenFreeTextToAnyClientThatCanShowForms() {
    library();
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      ServerSession session = server.openSession(Outbound.discard());
      assertThat(call(
              session,
              "prompts/get",
              "{\"name\":\"open\",\"arguments\":{\"text\":\"good\"}}",
              FORM,
              "x"))
          .contains("TEXT=[good]");
      String checked = call(
          session,
          "prompts/get",
          "{\"name\":\"checked\",\"arguments\":{\"text\":\"good\"}}",
          FORM,
          "x");
      assertThat(checked).contains("\"input_required\"", "\"default\":\"good\"");
      // Not to a client that cannot show one.
      assertThat(call(
              session,
              "prompts/get",
              "{\"name\":\"checked\",\"arguments\":{\"text\":\"good\"}}",
              "{}",
              "x"))
          .contains("TEXT=[good]");
      // A bare command of a prompt that keeps an argument's flag asks for the rest, and that
      // argument when missing.
      String mixed = call(session, "prompts/get", "{\"name\":\"mixed\"}", FORM, "x");
      assertThat(mixed).contains("\"required\":[\"text\",\"id\"]");
    }
  }

  @Test
  void theLinterChecksTheSettingsTypes() {
    write(
        root,
        "bad.prompt.md",
        "---\ndescription: d\nformFirst: sometimes\narguments:\n  - name: text\n---\n"
            + "{{text}}\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .singleElement()
          .asString()
          .startsWith(root.resolve("bad.prompt.md") + ":3: error:")
          .contains("formFirst");
    }
  }

  private static Map<String, String> required(String listAnswer) {
    Map<String, String> out = new LinkedHashMap<>();
    JsonObject result =
        ((JsonObject) JsonCodec.parse(listAnswer)).object("result").orElseThrow();
    for (Json p : result.array("prompts").orElseThrow().elements()) {
      JsonObject prompt = (JsonObject) p;
      StringBuilder flags = new StringBuilder("[");
      for (Json a : prompt.array("arguments").orElseThrow().elements()) {
        flags
            .append(flags.length() > 1 ? ", " : "")
            .append(((JsonObject) a).get("required") != null
                && JsonCodec.write(((JsonObject) a).get("required")).equals("true"));
      }
      out.put(prompt.string("name").orElseThrow(), flags.append(']').toString());
    }
    return out;
  }

  private static String call(
      ServerSession session, String method, String params, String capabilities, String client) {
    String text = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":"
        + params.substring(0, params.length() - 1) + (params.length() > 2 ? "," : "")
        + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":" + capabilities + ","
        + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"" + client
        + "\",\"version\":\"1\"}}}}";
    Request request = (Request) ((Incoming.Single) MessageCodec.decode(text)).message();
    return MessageCodec.encode(session.handle(request, Outbound.discard()));
  }
}
