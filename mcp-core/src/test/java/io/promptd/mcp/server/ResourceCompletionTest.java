package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code completion/complete} with {@code ref/resource}: the provider completes a template's
 * variables with the context arguments; a template it does not list, or that the caller may not
 * see, answers like one nobody serves; a failing provider gets a safe -32603.
 */
class ResourceCompletionTest {
  private static final ResourceTemplate OPEN =
      ResourceTemplate.of("open://{team}/{page}", "open", "d", "text/plain");
  private static final ResourceTemplate SECRET =
      ResourceTemplate.of("secret://{key}", "secret", "d", "text/plain");
  private static final Caller NOBODY = Caller.authenticated("nobody", Set.of());

  private final ResourceProvider provider = new ResourceProvider() {
    @Override
    public List<Resource> resources() {
      return List.of();
    }

    @Override
    public List<ResourceTemplate> templates() {
      return List.of(OPEN, SECRET);
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      return Optional.empty();
    }

    @Override
    public boolean visible(Caller caller, ResourceTemplate template) {
      return !template.equals(SECRET);
    }

    @Override
    public Completion complete(
        ResourceTemplate template, String variable, String value, Map<String, String> context) {
      if (value.equals("boom")) {
        throw new IllegalStateException("the database at 10.0.0.5 is down");
      }
      return Completion.of(List.of(template.name() + ":" + variable + ":" + value + ":" + context));
    }
  };
  private final McpServer server = McpServer.builder().resources(provider).build();
  private final StatelessEndpoint stateless = server.openStateless();
  private int id;

  @AfterEach
  void close() {
    server.close();
  }

  @Test
  void theProviderCompletesWithTheContextArguments() {
    String answer = complete(
        Caller.UNRESTRICTED,
        "open://{team}/{page}",
        "page",
        "d",
        ",\"context\":{\"arguments\":{\"team\":\"backend\"}}");
    SchemaHarness.of(ProtocolVersion.V2026_07_28).assertConforms(answer, "completion/complete");
    assertThat(answer)
        .contains("\"completion\":{\"values\":[\"open:page:d:{team=backend}\"],\"total\":1,"
            + "\"hasMore\":false}");
  }

  @Test
  void aHiddenTemplateAnswersExactlyLikeAnUnknownOne() {
    String hidden = complete(NOBODY, "secret://{key}", "key", "", "");
    String unknown = complete(NOBODY, "nothing://{key}", "key", "", "");
    assertThat(hidden).contains("\"values\":[]").isEqualTo(unknown.replace("\"id\":2", "\"id\":1"));
    assertThat(complete(Caller.UNRESTRICTED, "secret://{key}", "key", "", ""))
        .contains("secret:key::{}");
  }

  @Test
  void aMissingUriIsInvalidParamsAndAFailingProviderIsASafeInternalError() {
    assertThat(complete(Caller.UNRESTRICTED, null, "x", "", ""))
        .contains("-32602", "a \\\"ref/resource\\\" needs \\\"uri\\\"");
    String failed = complete(Caller.UNRESTRICTED, "open://{team}/{page}", "team", "boom", "");
    assertThat(failed)
        .contains("\"code\":-32603", "resource template 'open://{team}/{page}': completion failed")
        .doesNotContain("10.0.0.5", "IllegalStateException");
    assertThat(complete(
            Caller.UNRESTRICTED,
            "open://{team}/{page}",
            "team",
            "",
            ",\"context\":{\"arguments\":[]}"))
        .contains("-32602", "\\\"context.arguments\\\" must be an object of strings");
  }

  private String complete(
      Caller caller, String uri, String variable, String value, String context) {
    String ref = uri == null
        ? "{\"type\":\"ref/resource\"}"
        : "{\"type\":\"ref/resource\",\"uri\":\"" + uri + "\"}";
    Request request = Wire.modern(
        ++id,
        "completion/complete",
        "\"ref\":" + ref + ",\"argument\":{\"name\":\"" + variable + "\",\"value\":\"" + value
            + "\"}" + context);
    byte[] reply = stateless
        .receive(
            new Incoming.Single(request),
            new RequestHeaders("2026-07-28", "completion/complete", uri),
            caller)
        .run(new Recorder())
        .encode(false);
    return new String(reply, StandardCharsets.UTF_8);
  }
}
