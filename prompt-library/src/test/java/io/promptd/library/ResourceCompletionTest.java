package io.promptd.library;

import static io.promptd.library.Files2.write;
import static io.promptd.library.ResourceFormatTest.load;
import static io.promptd.library.ResourceFormatTest.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code completion/complete} for resource-template variables: a templated {@code NAME.resource.md}
 * declares its variables' {@code enum} or {@code examples} under {@code variables:}, keyed by
 * another variable with {@code dependsOn}; completion suggests from them with
 * {@code context.arguments}, and an {@code enum} limits the URIs read.
 */
class ResourceCompletionTest {
  private static final String TEAM_DOCS = """
      ---
      uriTemplate: docs://{team}/{page}
      description: One page of a team's docs
      variables:
        team:
          description: the team that owns the page
          enum: [backend, frontend, data]
        page:
          dependsOn: team
          examples:
            backend: [api, database, deploy]
            frontend: [components, design]
            "*": [readme]
      ---
      {{team}}: {{page}}
      """;

  @TempDir
  Path root;

  @Test
  void variablesCompleteFromTheirDeclarationsWithContextArguments() {
    write(root, "docs.resource.md", TEAM_DOCS);
    try (Library library = load(root);
        McpServer server =
            McpServer.builder().prompts(library.catalog()).resources(library).build()) {
      assertThat(library.diagnostics()).isEmpty();
      ServerSession session = server.openSession(Outbound.discard());
      call(
          session,
          1,
          "initialize",
          "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}");
      assertThat(complete(session, 2, "team", "", ""))
          .isEqualTo(completion(2, "\"backend\",\"frontend\",\"data\"", 3));
      assertThat(complete(session, 3, "team", "FR", ""))
          .isEqualTo(completion(3, "\"frontend\"", 1));
      assertThat(complete(
              session, 4, "page", "d", ",\"context\":{\"arguments\":{\"team\":\"backend\"}}"))
          .isEqualTo(completion(4, "\"database\",\"deploy\"", 2));
      assertThat(
              complete(session, 5, "page", "", ",\"context\":{\"arguments\":{\"team\":\"data\"}}"))
          .as("a team without its own list: the '*' list")
          .isEqualTo(completion(5, "\"readme\"", 1));
      assertThat(complete(session, 6, "page", "", ""))
          .as("team unknown yet: every page")
          .isEqualTo(completion(
              6, "\"api\",\"database\",\"deploy\",\"components\",\"design\",\"readme\"", 6));
      assertThat(complete(session, 7, "nothing", "", "")).isEqualTo(completion(7, "", 0));
      assertThat(call(
              session,
              8,
              "completion/complete",
              "\"ref\":{\"type\":\"ref/resource\",\"uri\":\"docs://{x}\"},"
                  + "\"argument\":{\"name\":\"x\",\"value\":\"\"}"))
          .as("a template nobody serves")
          .isEqualTo(completion(8, "", 0));
      String modern = call(
          session,
          9,
          "completion/complete",
          "\"ref\":{\"type\":\"ref/resource\",\"uri\":"
              + "\"docs://{team}/{page}\"},\"argument\":{\"name\":\"team\",\"value\":\"b\"},\"_meta\":{\"io.modelcontextprotocol/"
              + "protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{}}");
      assertThat(modern)
          .startsWith(
              "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"completion\":{\"values\":[\"backend\"],"
                  + "\"total\":1,\"hasMore\":false}");
    }
  }

  @Test
  void anEnumLimitsTheUrisTheTemplateServesAndExamplesDoNot() {
    write(root, "docs.resource.md", TEAM_DOCS);
    try (Library library = load(root)) {
      assertThat(text(library, "docs://backend/anything")).isEqualTo("backend: anything");
      assertThat(library.read("docs://marketing/api")).isEmpty();
      ResourceTemplate template = library.templates().getFirst();
      assertThat(library.complete(template, "team", "d", Map.of()).values())
          .containsExactly("data");
    }
  }

  @Test
  void badDeclarationsAreErrorsAtTheirLines() {
    Path unknown = write(
        root,
        "a.resource.md",
        "---\nuriTemplate: a://{x}\ndescription: d\nvariables:\n  y:\n"
            + "    enum: [1]\n---\n{{x}}\n");
    Path fixed = write(
        root,
        "b.resource.md",
        "---\nuri: b://fixed\ndescription: d\nvariables:\n  x:\n" + "    enum: [1]\n---\nbody\n");
    Path keyed = write(
        root,
        "c.resource.md",
        "---\nuriTemplate: c://{x}/{y}\ndescription: d\nvariables:\n  y:\n"
            + "    examples:\n      one: [a]\n---\n{{x}}\n");
    Path depends = write(
        root,
        "d.resource.md",
        "---\nuriTemplate: d://{x}\ndescription: d\nvariables:\n  x:\n"
            + "    dependsOn: z\n    examples: [a]\n---\n{{x}}\n");
    try (Library library = load(root)) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .containsExactlyInAnyOrder(
              unknown
                  + ":6: error: variables: 'y' is not a variable of uriTemplate 'a://{x}' (it has x)",
              fixed
                  + ":5: error: 'variables' describes the variables of a 'uriTemplate'; a resource with a fixed 'uri'"
                  + " has none",
              keyed
                  + ":7: error: variable 'y': 'examples' is a mapping, so 'dependsOn' must name the variable its keys"
                  + " are values of",
              depends
                  + ":6: error: variable 'x': dependsOn 'z' must name another variable of the template");
    }
  }

  private static String completion(int id, String values, int total) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"completion\":{\"values\":["
        + values + "],\"total\":" + total + ",\"hasMore\":false}}}";
  }

  private static String complete(
      ServerSession session, int id, String variable, String value, String context) {
    return call(
        session,
        id,
        "completion/complete",
        "\"ref\":{\"type\":\"ref/resource\",\"uri\":\"docs://{team}/{page}\"},"
            + "\"argument\":{\"name\":\"" + variable + "\",\"value\":\"" + value + "\"}" + context);
  }

  private static String call(ServerSession session, int id, String method, String params) {
    Request request =
        (Request) ((Incoming.Single) MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":" + id
                + ",\"method\":\"" + method + "\",\"params\":{" + params + "}}"))
            .message();
    return MessageCodec.encode(session.handle(request, Outbound.discard()));
  }
}
