package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prompt files and elicitation: the form a 2026-07-28 {@code InputRequiredResult} shows is built
 * from the file's argument declarations (type, enum, default, title, description; a pattern said in
 * words), it asks in one form for every argument without a valid value (form-first), the answers
 * are checked by the same rules, and {@code elicit: false} opts a prompt out.
 */
class ElicitFormsTest {
  private static final String PLAN = """
      ---
      description: Plans a release
      arguments:
        - name: version
          title: Version
          description: The version to release
          required: true
          pattern: "\\\\d+\\\\.\\\\d+\\\\.\\\\d+"
        - name: channel
          description: Where it goes
          enum: [stable, beta]
          default: stable
        - name: weeks
          type: integer
          description: Weeks until the release
          required: true
        - name: notes
          type: boolean
          default: "true"
      ---
      Release {{version}} to {{channel}} in {{weeks}} weeks{{#notes}}, with notes{{/notes}}.
      """;
  private static final String FORM = "{\"elicitation\":{\"form\":{}}}";

  @TempDir
  Path root;

  @Test
  void
      oneFormAsksForEverythingMissingOrInvalidRequiredFirstAndTheAnswersAreCheckedByTheSameRules() {
    write(root, "plan.prompt.md", PLAN);
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      assertThat(library.diagnostics()).isEmpty();
      ServerSession session = server.openSession(Outbound.discard());
      JsonObject first = result(get(session, 1, "{\"version\":\"1.2\"}", null, null));
      assertThat(first.string("resultType")).hasValue("input_required");
      JsonObject params = first
          .object("inputRequests")
          .orElseThrow()
          .object("arguments")
          .orElseThrow()
          .object("params")
          .orElseThrow();
      // Form-first: the version breaks its pattern (offered back for correction, the pattern in
      // words), weeks is missing, and the optional channel and notes come after them with their
      // defaults: all in one form.
      assertThat(params.string("message"))
          .hasValue("The prompt 'plan' needs more from you: Version must match the"
              + " pattern \\d+\\.\\d+\\.\\d+, not '1.2'; weeks is required.");
      assertThat(JsonCodec.write(params.object("requestedSchema").orElseThrow()))
          .isEqualTo("{\"type\":\"object\","
              + "\"properties\":{\"version\":{\"type\":\"string\",\"title\":\"Version\",\"description\":\"The version to"
              + " release Must match the pattern \\\\d+\\\\.\\\\d+\\\\.\\\\d+.\",\"default\":\"1.2\"},"
              + "\"weeks\":{\"type\":\"integer\",\"description\":\"Weeks until the release\"},"
              + "\"channel\":{\"type\":\"string\",\"enum\":[\"stable\",\"beta\"],\"description\":\"Where it goes\","
              + "\"default\":\"stable\"},\"notes\":{\"type\":\"boolean\",\"default\":true}},"
              + "\"required\":[\"version\",\"weeks\"]}");
      String state = first.string("requestState").orElseThrow();

      // Weeks answered as a JSON integer, the version still wrong: asked again for the version
      // only.
      JsonObject second = result(get(
          session,
          2,
          "{\"version\":\"1.2\"}",
          state,
          "{\"arguments\":{\"action\":\"accept\",\"content\":{\"weeks\":3,\"version\":\"1.2\"}}}"));
      JsonObject form = second
          .object("inputRequests")
          .orElseThrow()
          .object("arguments")
          .orElseThrow()
          .object("params")
          .orElseThrow();
      assertThat(form.object("requestedSchema")
              .orElseThrow()
              .object("properties")
              .orElseThrow()
              .members()
              .keySet())
          .containsExactly("version", "channel", "notes");
      assertThat(form.string("message"))
          .hasValue("The prompt 'plan' needs more from you: Version must match the"
              + " pattern \\d+\\.\\d+\\.\\d+, not '1.2'.");

      String done = get(
          session,
          3,
          "{\"version\":\"1.2\"}",
          second.string("requestState").orElseThrow(),
          "{\"arguments\":{\"action\":\"accept\",\"content\":{\"version\":\"1.2.0\"}}}");
      assertThat(done)
          .contains(
              "Release 1.2.0 to stable in 3 weeks, with notes.", "\"resultType\":\"complete\"");
    }
  }

  @Test
  void enumsAndBooleansKeepTheirTypesAndDefaults() {
    write(root, "plan.prompt.md", PLAN);
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      ServerSession session = server.openSession(Outbound.discard());
      JsonObject asked = result(get(
          session,
          1,
          "{\"version\":\"1.0.0\",\"weeks\":\"2\",\"channel\":\"nightly\","
              + "\"notes\":\"maybe\"}",
          null,
          null));
      JsonObject properties = asked
          .object("inputRequests")
          .orElseThrow()
          .object("arguments")
          .orElseThrow()
          .object("params")
          .orElseThrow()
          .object("requestedSchema")
          .orElseThrow()
          .object("properties")
          .orElseThrow();
      // Every bad value at once; an invalid value is not offered back where the field cannot hold
      // it.
      assertThat(JsonCodec.write(properties))
          .isEqualTo("{\"channel\":{\"type\":\"string\",\"enum\":[\"stable\","
              + "\"beta\"],\"description\":\"Where it goes\",\"default\":\"stable\"},"
              + "\"notes\":{\"type\":\"boolean\",\"default\":true}}");
      String done = get(
          session,
          2,
          "{\"version\":\"1.0.0\",\"weeks\":\"2\",\"channel\":\"nightly\",\"notes\":"
              + "\"maybe\"}",
          asked.string("requestState").orElseThrow(),
          "{\"arguments\":{\"action\":\"accept\",\"content\":{\"channel\":\"beta\",\"notes\":false}}}");
      assertThat(done).contains("Release 1.0.0 to beta in 2 weeks.");
    }
  }

  /**
   * {@code enumTitles} names an enum's values for people: the form is a titled single-select
   * ({@code oneOf}).
   */
  @Test
  void enumTitlesMakeATitledSingleSelect() {
    write(root, "pick.prompt.md", """
        ---
        description: Picks a language
        arguments:
          - name: lang
            required: true
            enum: [fr, de]
            enumTitles: {fr: French, de: German}
        ---
        Use {{lang}}.
        """);
    write(
        root,
        "bad.prompt.md",
        "---\ndescription: d\narguments:\n  - name: x\n    enum: [a]\n    enumTitles: {b: B}\n"
            + "---\n{{x}}\n");
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .containsExactly(
              root.resolve("bad.prompt.md")
                  + ":6: error: argument 'x': enumTitles names 'b', which is not one of its enum values");
      String text =
          "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{\"name\":\"pick\","
              + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
              + "\"io.modelcontextprotocol/clientCapabilities\":" + FORM + "}}}";
      String answer = MessageCodec.encode(server
          .openSession(Outbound.discard())
          .handle(
              (Request) ((Incoming.Single) MessageCodec.decode(text)).message(),
              Outbound.discard()));
      assertThat(answer)
          .contains(
              "\"lang\":{\"type\":\"string\",\"oneOf\":[{\"const\":\"fr\",\"title\":\"French\"},"
                  + "{\"const\":\"de\",\"title\":\"German\"}]}");
    }
  }

  @Test
  void elicitFalseOptsAPromptOut() {
    write(
        root,
        "plan.prompt.md",
        PLAN.replace(
            "description: Plans a release", "description: Plans a release\n" + "elicit: false"));
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(get(server.openSession(Outbound.discard()), 1, "{}", null, null))
          .isEqualTo("{\"jsonrpc\":\"2.0\","
              + "\"id\":1,\"error\":{\"code\":-32602,\"message\":\"prompt 'plan': missing required arguments 'version',"
              + " 'weeks'\"}}");
    }
  }

  private static JsonObject result(String answer) {
    return ((JsonObject) JsonCodec.parse(answer))
        .object("result")
        .orElseThrow(() -> new AssertionError(answer));
  }

  private static String get(
      ServerSession session, int id, String arguments, String state, String responses) {
    String text = "{\"jsonrpc\":\"2.0\",\"id\":" + id
        + ",\"method\":\"prompts/get\",\"params\":{\"name\":\"plan\","
        + "\"arguments\":" + arguments
        + (state == null ? "" : ",\"requestState\":\"" + state + "\"")
        + (responses == null ? "" : ",\"inputResponses\":" + responses)
        + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":" + FORM + "}}}";
    Request request = (Request) ((Incoming.Single) MessageCodec.decode(text)).message();
    return MessageCodec.encode(session.handle(request, Outbound.discard()));
  }
}
