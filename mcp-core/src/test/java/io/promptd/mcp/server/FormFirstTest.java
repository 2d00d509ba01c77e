package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Form-first arguments ({@link ArgumentForms}): a client that can show forms sees required
 * arguments as optional, so that it lets a bare command through, and gets one form asking for every
 * argument without a valid value — required ones first, invalid values offered back, free text
 * typed into a splitting client shown for checking — in both eras. A client that cannot show forms
 * sees exactly the declared prompts and today's -32602.
 */
@Timeout(30)
class FormFirstTest {
  private static final SchemaHarness MODERN = SchemaHarness.of(ProtocolVersion.V2026_07_28);
  private static final String FORM = "{\"elicitation\":{\"form\":{}}}";
  private static final String CLAUDE = "{\"name\":\"claude-code\",\"version\":\"2.1.328\"}";
  private static final String OTHER = "{\"name\":\"some-client\",\"version\":\"1\"}";

  private final List<McpServer> servers = new ArrayList<>();
  private final List<ServerSession> sessions = new ArrayList<>();

  @AfterEach
  void close() {
    sessions.forEach(ServerSession::close);
    servers.forEach(McpServer::close);
  }

  /** tone (optional, choices) is declared before text and language, both required. */
  private McpServer server(UnaryOperator<McpServer.Builder> settings, @Nullable JsonObject meta) {
    McpServer server = settings.apply(McpServer.builder()).build();
    servers.add(server);
    server
        .prompts()
        .put(new PromptDefinition(
            new Prompt(
                "translate",
                null,
                "Translates",
                List.of(
                    new PromptArgument("tone", "Tone", "Register", false),
                    new PromptArgument("text", "Text", "What to translate", true),
                    new PromptArgument("language", "Language", "Into which language", true)),
                List.of(),
                meta),
            new Translator(),
            null));
    return server;
  }

  private McpServer server() {
    return server(b -> b, null);
  }

  @Test
  void aClientThatCanShowFormsSeesRequiredArgumentsAsOptionalInBothEras() {
    McpServer server = server();
    JsonObject modern = modernResult(server, 1, "prompts/list", "{}", FORM, OTHER);
    assertThat(required(modern)).containsExactly(false, false, false);
    assertThat(modern.string("cacheScope"))
        .as("varies with the request's capabilities")
        .hasValue("private");
    ServerSession legacy = legacySession(server, "2025-11-25", FORM, OTHER);
    assertThat(required(legacyResult(legacy, 1, "prompts/list", "{}")))
        .containsExactly(false, false, false);
  }

  @Test
  void aClientThatCannotShowFormsSeesThePromptsAsDeclared() {
    McpServer server = server();
    for (String caps : List.of("{}", "{\"elicitation\":{\"url\":{}}}", "{\"sampling\":{}}")) {
      JsonObject modern = modernResult(server, 1, "prompts/list", "{}", caps, OTHER);
      assertThat(required(modern)).as(caps).containsExactly(false, true, true);
      assertThat(modern.string("cacheScope")).hasValue("public");
      assertThat(required(legacyResult(
              legacySession(server, "2025-11-25", caps, OTHER), 1, "prompts/list", "{}")))
          .containsExactly(false, true, true);
    }
    // 2025-03-26 has no elicitation at all.
    assertThat(required(legacyResult(
            legacySession(server, "2025-03-26", FORM, OTHER), 1, "prompts/list", "{}")))
        .containsExactly(false, true, true);
  }

  @Test
  void theServerThePromptAndTheArgumentCanTurnItOff() {
    assertThat(required(modernResult(
            server(b -> b.formFirst(false), null), 1, "prompts/list", "{}", FORM, OTHER)))
        .containsExactly(false, true, true);
    assertThat(required(modernResult(
            server(b -> b.elicitation(false), null), 1, "prompts/list", "{}", FORM, OTHER)))
        .containsExactly(false, true, true);
    JsonObject promptOff = meta("{\"io.promptd/form\":{\"first\":false}}");
    assertThat(
            required(modernResult(server(b -> b, promptOff), 1, "prompts/list", "{}", FORM, OTHER)))
        .containsExactly(false, true, true);
    JsonObject argumentOff =
        meta("{\"io.promptd/arguments\":{\"language\":{\"formFirst\":false}}}");
    McpServer server = server(b -> b, argumentOff);
    assertThat(required(modernResult(server, 1, "prompts/list", "{}", FORM, OTHER)))
        .containsExactly(false, false, true);
    // The argument that keeps its flag is asked for only because it is missing, not to complete the
    // form.
    JsonObject form = form(modernResult(
        server,
        2,
        "prompts/get",
        "{\"name\":\"translate\",\"arguments\":" + "{\"language\":\"German\"}}",
        FORM,
        OTHER));
    assertThat(form.object("requestedSchema")
            .orElseThrow()
            .object("properties")
            .orElseThrow()
            .members()
            .keySet())
        .containsExactly("text", "tone");
  }

  @Test
  void aBareCommandGetsOneFormForEveryArgumentRequiredFirstAndTheWholeAnswerRenders() {
    McpServer server = server();
    JsonObject asked =
        modernResult(server, 1, "prompts/get", "{\"name\":\"translate\"}", FORM, OTHER);
    JsonObject form = form(asked);
    JsonObject schema = form.object("requestedSchema").orElseThrow();
    assertThat(schema.object("properties").orElseThrow().members().keySet())
        .containsExactly("text", "language", "tone");
    assertThat(JsonCodec.write(schema.get("required"))).isEqualTo("[\"text\",\"language\"]");
    assertThat(JsonCodec.write(schema.object("properties").orElseThrow().get("language")))
        .contains("\"enum\":[\"French\",\"German\"]", "\"default\":\"French\"");
    assertThat(form.string("message"))
        .hasValue(
            "The prompt 'translate' needs more from you: Text is required; Language is required.");
    String answered = modern(
        server,
        2,
        "prompts/get",
        "{\"name\":\"translate\",\"requestState\":\""
            + asked.string("requestState").orElseThrow()
            + "\",\"inputResponses\":{\"arguments\":{\"action\":\"accept\","
            + "\"content\":{\"text\":\"good morning my friend\",\"language\":\"German\",\"tone\":\"formal\"}}}}",
        FORM,
        OTHER);
    MODERN.assertConforms(answered, "prompts/get");
    assertThat(answered).contains("[good morning my friend] in German, formal");
  }

  @Test
  void missingAndInvalidValuesAreAskedForInOneFormAndTheValidOnesAreKept() {
    McpServer server = server();
    // text is missing, language is not a choice, tone is valid: one form for text and language.
    JsonObject form = form(modernResult(
        server,
        1,
        "prompts/get",
        "{\"name\":\"translate\",\"arguments\":"
            + "{\"language\":\"Klingon\",\"tone\":\"formal\"}}",
        FORM,
        OTHER));
    assertThat(form.object("requestedSchema")
            .orElseThrow()
            .object("properties")
            .orElseThrow()
            .members()
            .keySet())
        .containsExactly("text", "language");
    assertThat(form.string("message"))
        .hasValue("The prompt 'translate' needs more from you: Text is required;"
            + " Language must be one of French, German.");
  }

  @Test
  void freeTextTypedIntoAClientThatCutsAtSpacesIsShownForCheckingOnce() {
    McpServer server = server();
    String args =
        "{\"name\":\"translate\",\"arguments\":{\"text\":\"good\",\"language\":\"German\"}";
    // Another client: its values are used as they are.
    assertThat(modern(server, 1, "prompts/get", args + "}", FORM, OTHER))
        .contains("[good] in German");
    // Claude Code: the text it passed is filled in for the user to check; the language (a choice)
    // is not asked.
    JsonObject asked = modernResult(server, 2, "prompts/get", args + "}", FORM, CLAUDE);
    JsonObject form = form(asked);
    JsonObject properties =
        form.object("requestedSchema").orElseThrow().object("properties").orElseThrow();
    assertThat(properties.members().keySet()).containsExactly("text", "tone");
    assertThat(properties.object("text").orElseThrow().string("default")).hasValue("good");
    assertThat(form.string("message"))
        .hasValue("The prompt 'translate' will use these values: check them, then" + " accept.");
    String answered = modern(
        server,
        3,
        "prompts/get",
        args + ",\"requestState\":\""
            + asked.string("requestState").orElseThrow()
            + "\",\"inputResponses\":{\"arguments\":{\"action\":\"accept\","
            + "\"content\":{\"text\":\"good morning my friend\"}}}}",
        FORM,
        CLAUDE);
    assertThat(answered).contains("[good morning my friend] in German");
    // Declined (2026-07-28): the user saw the value and chose not to change it; it is used as
    // given.
    String declined = modern(
        server,
        4,
        "prompts/get",
        args + ",\"requestState\":\"" + asked.string("requestState").orElseThrow()
            + "\",\"inputResponses\":{\"arguments\":{\"action\":\"decline\"}}}",
        FORM,
        CLAUDE);
    assertThat(declined).contains("[good] in German");
    // The server and the prompt decide otherwise.
    assertThat(modern(
            server(b -> b.freeTextConfirmation(FreeTextConfirmation.NEVER), null),
            5,
            "prompts/get",
            args + "}",
            FORM,
            CLAUDE))
        .contains("[good] in German");
    assertThat(modern(
            server(b -> b.freeTextConfirmation(FreeTextConfirmation.ALWAYS), null),
            6,
            "prompts/get",
            args + "}",
            FORM,
            OTHER))
        .contains("input_required");
    assertThat(modern(
            server(b -> b, meta("{\"io.promptd/form\":{\"confirm\":false}}")),
            7,
            "prompts/get",
            args + "}",
            FORM,
            CLAUDE))
        .contains("[good] in German");
    assertThat(modern(
            server(b -> b, meta("{\"io.promptd/arguments\":{\"text\":{\"confirm\":true}}}")),
            8,
            "prompts/get",
            args + "}",
            FORM,
            OTHER))
        .contains("input_required");
  }

  @Test
  void withoutFormsAMissingArgumentIsTodaysInvalidParams() {
    McpServer server = server();
    assertThat(modern(server, 1, "prompts/get", "{\"name\":\"translate\"}", "{}", CLAUDE))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"prompt 'translate': missing required"
                + " arguments 'text', 'language'\"}}");
    ServerSession legacy = legacySession(server, "2025-11-25", "{}", CLAUDE);
    assertThat(MessageCodec.encode(
            legacy.handle(Wire.legacy(2, "prompts/get", "\"name\":\"translate\""), new Recorder())))
        .contains("-32602", "missing required arguments 'text', 'language'");
  }

  @Test
  void aLegacyBareCommandGetsOneElicitationAndRendersTheAnswer() throws Exception {
    McpServer server = server();
    Recorder toClient = new Recorder();
    ServerSession session = server.openSession(toClient);
    sessions.add(session);
    session.handle(
        Wire.request("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"elicitation\":{}},\"clientInfo\":"
            + CLAUDE + "}}"),
        toClient);
    Outbound stream = Outbound.carryingRequests(toClient);
    Call call = session.receive(
        new Incoming.Single(Wire.legacy(5, "prompts/get", "\"name\":\"translate\"")));
    CompletableFuture<Response> result = CompletableFuture.supplyAsync(
        () -> call.run(stream).response(), r -> Thread.ofVirtual().start(r));
    Request elicit = nextRequest(toClient);
    assertThat(elicit.method()).isEqualTo("elicitation/create");
    assertThat(elicit.params().has("mode")).as("2025-06-18 has no mode").isFalse();
    assertThat(elicit
            .params()
            .object("requestedSchema")
            .orElseThrow()
            .object("properties")
            .orElseThrow()
            .members()
            .keySet())
        .containsExactly("text", "language", "tone");
    session.receive(
        new Incoming.Single(
            new ResultResponse(
                elicit.id(),
                (JsonObject)
                    JsonCodec.parse(
                        "{\"action\":\"accept\",\"content\":{\"text\":\"good morning my friend\",\"language\":\"French\"}}"))));
    assertThat(MessageCodec.encode(result.get(10, TimeUnit.SECONDS)))
        .contains("[good morning my friend] in French, neutral");
  }

  private static Request nextRequest(Recorder toClient) throws InterruptedException {
    while (true) {
      if (((Incoming.Single) MessageCodec.decode(toClient.next())).message() instanceof Request r) {
        return r;
      }
    }
  }

  private static JsonObject meta(String json) {
    return (JsonObject) JsonCodec.parse(json);
  }

  private static List<Boolean> required(JsonObject listResult) {
    JsonArray prompts = listResult.array("prompts").orElseThrow();
    JsonObject prompt = (JsonObject) prompts.get(0);
    List<Boolean> out = new ArrayList<>();
    for (var a : prompt.array("arguments").orElseThrow().elements()) {
      out.add(JsonCodec.write(a).contains("\"required\":true"));
    }
    return out;
  }

  private static JsonObject form(JsonObject inputRequired) {
    assertThat(inputRequired.string("resultType")).hasValue("input_required");
    return inputRequired
        .object("inputRequests")
        .orElseThrow()
        .object("arguments")
        .orElseThrow()
        .object("params")
        .orElseThrow();
  }

  private ServerSession legacySession(
      McpServer server, String version, String capabilities, String client) {
    ServerSession s = server.openSession(new Recorder());
    sessions.add(s);
    s.handle(
        Wire.request("{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"" + version + "\",\"capabilities\":" + capabilities
            + ",\"clientInfo\":" + client
            + "}}"),
        new Recorder());
    return s;
  }

  private static JsonObject legacyResult(
      ServerSession session, long id, String method, String params) {
    String answer = MessageCodec.encode(session.handle(
        Wire.request("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method
            + "\",\"params\":" + params + "}"),
        new Recorder()));
    return ((JsonObject) JsonCodec.parse(answer)).object("result").orElseThrow();
  }

  private String modern(
      McpServer server, long id, String method, String params, String capabilities, String client) {
    ServerSession s = server.openSession(new Recorder());
    sessions.add(s);
    String withMeta = params.substring(0, params.length() - 1) + (params.length() > 2 ? "," : "")
        + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":" + capabilities + ","
        + "\"io.modelcontextprotocol/clientInfo\":" + client + "}}";
    return MessageCodec.encode(s.handle(
        Wire.request("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method
            + "\",\"params\":" + withMeta + "}"),
        new Recorder()));
  }

  private JsonObject modernResult(
      McpServer server, long id, String method, String params, String capabilities, String client) {
    String answer = modern(server, id, method, params, capabilities, client);
    JsonObject result = ((JsonObject) JsonCodec.parse(answer)).object("result").orElseThrow();
    if (answer.contains("\"input_required\"")) {
      assertThat(MODERN.checkAs("InputRequiredResult", JsonCodec.write(result)))
          .as(answer)
          .isEmpty();
    } else {
      MODERN.assertConforms(answer, method);
    }
    return result;
  }

  /**
   * Renders "[text] in language, tone"; language is a choice of two with a default, checked before
   * rendering.
   */
  private static final class Translator implements PromptRenderer {
    private static final ArgumentField LANGUAGE = ArgumentField.builder("language")
        .title("Language")
        .description("Into which language")
        .choices(List.of("French", "German"))
        .defaultValue("French")
        .required(true)
        .build();
    private static final ArgumentField TONE = ArgumentField.builder("tone")
        .title("Tone")
        .description("Register")
        .choices(List.of("neutral", "formal"))
        .defaultValue("neutral")
        .build();

    @Override
    public GetPromptResult render(Map<String, String> arguments) {
      List<ArgumentsNeeded.Question> bad = check(arguments);
      if (!bad.isEmpty()) {
        throw new ArgumentsNeeded(
            "prompt 'translate': argument 'language' " + bad.getFirst().reason(), bad);
      }
      String tone = arguments.getOrDefault("tone", "neutral");
      return GetPromptResult.of(
          null,
          List.of(PromptMessage.user("[" + arguments.get("text") + "] in "
              + arguments.get("language") + ", " + (tone.isEmpty() ? "neutral" : tone))));
    }

    @Override
    public List<ArgumentsNeeded.Question> check(Map<String, String> arguments) {
      String language = arguments.get("language");
      return language == null || language.isEmpty() || LANGUAGE.choices().contains(language)
          ? List.of()
          : List.of(new ArgumentsNeeded.Question(LANGUAGE, "must be one of French, German"));
    }

    @Override
    public boolean mayBlock() {
      return false;
    }

    @Override
    public @Nullable ArgumentField field(String argument) {
      return switch (argument) {
        case "language" -> LANGUAGE;
        case "tone" -> TONE;
        default -> null;
      };
    }
  }
}
