package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.internal.state.FormElicitation;
import io.promptd.mcp.server.internal.state.RequestStates;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * 2026-07-28 multi round-trip requests for prompt arguments: a {@code prompts/get} with missing or
 * invalid arguments, from a client that declares form elicitation, is answered with an
 * {@code InputRequiredResult} asking for them; the retry with the user's answer and the sealed
 * {@code requestState} renders, or asks again for what is still wrong.
 */
class InputRequiredTest {
  private static final SchemaHarness MODERN = SchemaHarness.of(ProtocolVersion.V2026_07_28);
  private static final String FORM = "{\"elicitation\":{\"form\":{}}}";

  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-11-24T10:00:00Z"));
  private final List<PromptUse> uses = new CopyOnWriteArrayList<>();
  private final McpServer server =
      McpServer.builder().wallClock(now::get).onPromptUse(uses::add).build();
  private final ServerSession session = server.openSession(new Recorder());

  InputRequiredTest() {
    server
        .prompts()
        .put(new PromptDefinition(
            Prompt.of(
                "translate",
                "Translates text",
                List.of(
                    new PromptArgument("text", "Text", "What to translate", true),
                    new PromptArgument("lang", "Language", "The language to translate into", true),
                    new PromptArgument("count", null, "How many variants", false))),
            new Translator(true),
            null));
    server
        .prompts()
        .put(new PromptDefinition(
            Prompt.of("strict", "Never asks", List.of(new PromptArgument("x", null, null, true))),
            new Translator(false),
            null));
  }

  @AfterEach
  void close() {
    session.close();
    server.close();
  }

  @Test
  void missingArgumentsAreAskedForWithAFormBuiltFromTheirDeclarations() {
    // Form-first: the optional argument without a value is in the same form, after the required
    // ones.
    JsonObject result = inputRequired(get(1, "translate", "{}", FORM, null, null));
    JsonObject request =
        result.object("inputRequests").orElseThrow().object("arguments").orElseThrow();
    assertThat(request.string("method")).hasValue("elicitation/create");
    JsonObject params = request.object("params").orElseThrow();
    assertThat(params.string("mode")).hasValue("form");
    assertThat(params.string("message"))
        .hasValue(
            "The prompt 'translate' needs more from you: Text is required; Language is required.");
    assertThat(JsonCodec.write(params.object("requestedSchema").orElseThrow()))
        .isEqualTo("{\"type\":\"object\","
            + "\"properties\":{\"text\":{\"type\":\"string\",\"title\":\"Text\",\"description\":\"What to translate\"},"
            + "\"lang\":{\"type\":\"string\",\"enum\":[\"French\",\"German\"],\"title\":\"Language\","
            + "\"description\":\"The language to translate into\",\"default\":\"French\"},"
            + "\"count\":{\"type\":\"string\",\"description\":\"How many variants\"}},"
            + "\"required\":[\"text\",\"lang\"]}");
    assertThat(result.string("requestState")).isPresent();
  }

  @Test
  void theRetryWithTheAnswersRenders() {
    String state = state(get(1, "translate", "{}", FORM, null, null));
    String answer = get(
        2,
        "translate",
        "{}",
        FORM,
        state,
        "{\"arguments\":{\"action\":\"accept\",\"content\":{\"text\":\"hello\",\"lang\":\"German\"}}}");
    MODERN.assertConforms(answer, "prompts/get");
    assertThat(answer).contains("\"resultType\":\"complete\"", "hello in German");
  }

  @Test
  void anAnswerThatIsStillIncompleteOrInvalidIsAskedAgainForWhatIsWrongOnly() {
    String first = state(get(1, "translate", "{\"count\":\"2\"}", FORM, null, null));
    // The text is given; the language is not one of the choices.
    JsonObject again = inputRequired(get(
        2,
        "translate",
        "{\"count\":\"2\"}",
        FORM,
        first,
        "{\"arguments\":{\"action\":\"accept\",\"content\":{\"text\":\"hello\",\"lang\":\"Klingon\"},"
            + "\"ignored\":true},\"unknown-key\":{\"ignored\":1}}"));
    JsonObject params = again
        .object("inputRequests")
        .orElseThrow()
        .object("arguments")
        .orElseThrow()
        .object("params")
        .orElseThrow();
    assertThat(params.string("message"))
        .hasValue("The prompt 'translate' needs more from you: Language must be one of"
            + " French, German, not 'Klingon'.");
    assertThat(params
            .object("requestedSchema")
            .orElseThrow()
            .object("properties")
            .orElseThrow()
            .members()
            .keySet())
        .containsExactly("lang");
    // The text given in the first round is carried by the new state; only the language is answered
    // now.
    String answer = get(
        3,
        "translate",
        "{\"count\":\"2\"}",
        FORM,
        again.string("requestState").orElseThrow(),
        "{\"arguments\":{\"action\":\"accept\",\"content\":{\"lang\":\"French\"}}}");
    assertThat(answer).contains("hello in French (2 variants)");
  }

  @Test
  void withoutFormElicitationTheErrorIsTodaysInvalidParams() {
    for (String caps : List.of("{}", "{\"elicitation\":{\"url\":{}}}", "{\"sampling\":{}}")) {
      String answer = get(1, "translate", "{}", caps, null, null);
      MODERN.assertConforms(answer, "prompts/get");
      assertThat(answer)
          .as(caps)
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":"
              + "\"prompt 'translate': missing required arguments 'text', 'lang'\"}}");
    }
    // elicitation: {} means form, for clients written against 2025-06-18.
    assertThat(get(1, "translate", "{}", "{\"elicitation\":{}}", null, null))
        .contains("\"input_required\"");
  }

  @Test
  void aPromptOrAServerThatOptsOutNeverAsks() {
    assertThat(get(1, "strict", "{}", FORM, null, null))
        .contains("\"code\":-32602", "missing required argument 'x'");
    try (McpServer quiet = McpServer.builder().elicitation(false).build()) {
      quiet
          .prompts()
          .put(new PromptDefinition(
              Prompt.of("translate", null, List.of(new PromptArgument("text", null, null, true))),
              new Translator(true),
              null));
      ServerSession s = quiet.openSession(new Recorder());
      assertThat(encode(s.handle(request(1, "translate", "{}", FORM, null, null), new Recorder())))
          .contains("\"code\":-32602", "missing required argument 'text'");
    }
  }

  @Test
  void declineOrCancelIsTheInvalidParamsError() {
    String state = state(get(1, "translate", "{}", FORM, null, null));
    assertThat(get(2, "translate", "{}", FORM, state, "{\"arguments\":{\"action\":\"decline\"}}"))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32602,\"message\":\"prompt 'translate': missing required"
                + " arguments 'text', 'lang' (the user declined the form asking for them)\"}}");
    assertThat(get(3, "translate", "{}", FORM, state, "{\"arguments\":{\"action\":\"cancel\"}}"))
        .contains("(the user cancelled the form asking for them)");
  }

  @Test
  void eachGetOfAServedPromptIsToldToTheUsageListenerWithItsOutcome() {
    String state = state(get(1, "translate", "{}", FORM, null, null));
    get(2, "translate", "{}", FORM, state, "{\"arguments\":{\"action\":\"decline\"}}");
    get(3, "translate", "{\"text\":\"hi\",\"lang\":\"German\"}", "{}", null, null);
    get(4, "strict", "{}", "{}", null, null);
    get(5, "nosuchprompt", "{}", "{}", null, null); // an unknown name: not a use of any prompt
    assertThat(uses)
        .extracting(u -> u.prompt() + " " + u.outcome().label())
        .containsExactly(
            "translate form_asked",
            "translate form_declined",
            "translate rendered",
            "strict refused");
    assertThat(uses).allSatisfy(u -> assertThat(u.duration()).isPositive());
  }

  @Test
  void aRetryWithoutAnAnswerIsAskedAgain() {
    String state = state(get(1, "translate", "{}", FORM, null, null));
    assertThat(get(2, "translate", "{}", FORM, state, null)).contains("\"input_required\"");
    assertThat(get(3, "translate", "{}", FORM, state, "{}")).contains("\"input_required\"");
  }

  @Test
  void stateThatFailsItsChecksIsRefused() {
    String state = state(get(1, "translate", "{}", FORM, null, null));
    String answer =
        "{\"arguments\":{\"action\":\"accept\",\"content\":{\"text\":\"a\",\"lang\":\"French\"}}}";
    int dot = state.indexOf('.');
    String tampered = state.substring(0, dot - 2)
        + (state.charAt(dot - 2) == 'A' ? 'B' : 'A')
        + state.substring(dot - 1);
    assertThat(get(2, "translate", "{}", FORM, tampered, answer))
        .contains("-32602", "requestState is not one this server issued");
    assertThat(get(3, "translate", "{}", FORM, "garbage", answer))
        .contains("requestState is not one this server issued");
    // Replayed for another request: other arguments, another prompt.
    assertThat(get(4, "translate", "{\"count\":\"3\"}", FORM, state, answer))
        .contains("belongs to another request");
    assertThat(get(5, "strict", "{}", FORM, state, answer)).contains("belongs to another request");
    // Another server's state.
    try (McpServer other = McpServer.builder().build()) {
      other.prompts().put(server.prompts().snapshot().get("translate"));
      assertThat(encode(other
              .openSession(new Recorder())
              .handle(request(6, "translate", "{}", FORM, state, answer), new Recorder())))
          .contains("not one this server issued");
    }
    // Too long: refused before any decoding or MAC work.
    assertThat(get(7, "translate", "{}", FORM, "x".repeat(RequestStates.MAX_CHARS + 1), answer))
        .contains("requestState is too long");
    // Expired.
    now.set(now.get().plus(RequestStates.TTL).plus(Duration.ofSeconds(2)));
    assertThat(get(8, "translate", "{}", FORM, state, answer)).contains("requestState has expired");
  }

  @Test
  void stateIssuedToOnePrincipalIsRefusedForAnother() {
    Caller alice = Caller.authenticated("alice", Set.of());
    Caller bob = Caller.authenticated("bob", Set.of());
    String state = state(encode(session
        .receive(new Incoming.Single(request(1, "translate", "{}", FORM, null, null)), alice)
        .run(new Recorder())
        .response()));
    String answer =
        "{\"arguments\":{\"action\":\"accept\",\"content\":{\"text\":\"a\",\"lang\":\"French\"}}}";
    assertThat(encode(session
            .receive(new Incoming.Single(request(2, "translate", "{}", FORM, state, answer)), bob)
            .run(new Recorder())
            .response()))
        .contains("-32602", "requestState was issued to another principal");
    assertThat(encode(session
            .receive(new Incoming.Single(request(3, "translate", "{}", FORM, state, answer)), alice)
            .run(new Recorder())
            .response()))
        .contains("a in French");
  }

  @Test
  void aLoneSurrogateInAFormAnswerOrAnArgumentIsInvalidParams() {
    String state = state(get(1, "translate", "{}", FORM, null, null));
    assertThat(get(
            2,
            "translate",
            "{}",
            FORM,
            state,
            "{\"arguments\":{\"action\":\"accept\",\"content\":{\"text\":\"a\\ud800\","
                + "\"lang\":\"German\"}}}"))
        .contains(
            "\"code\":-32602",
            "inputResponses.arguments.content.text is not valid Unicode: a lone surrogate at"
                + " character 1");
    assertThat(get(3, "translate", "{\"text\":\"\\udc00b\",\"lang\":\"German\"}", FORM, null, null))
        .contains(
            "\"code\":-32602",
            "argument 'text' is not valid Unicode: a lone surrogate at character 0");
    // A pair is one character, rendered as sent.
    assertThat(get(
            4, "translate", "{\"text\":\"\\ud83d\\ude00\",\"lang\":\"German\"}", FORM, null, null))
        .contains("\"resultType\":\"complete\"", "\ud83d\ude00 in German");
  }

  @Test
  void malformedInputResponsesNameTheField() {
    String state = state(get(1, "translate", "{}", FORM, null, null));
    assertThat(get(2, "translate", "{}", FORM, null, "{\"arguments\":{\"action\":\"accept\"}}"))
        .contains("-32602", "inputResponses without requestState");
    assertThat(get(3, "translate", "{}", FORM, state, "[]"))
        .contains("inputResponses must be an object");
    assertThat(get(4, "translate", "{}", FORM, state, "{\"arguments\":\"yes\"}"))
        .contains("inputResponses.arguments must be an object");
    assertThat(get(5, "translate", "{}", FORM, state, "{\"arguments\":{\"action\":\"maybe\"}}"))
        .contains("inputResponses.arguments.action must be");
    assertThat(get(6, "translate", "{}", FORM, state, "{\"arguments\":{\"action\":\"accept\"}}"))
        .contains("inputResponses.arguments.content is required");
    assertThat(get(
            7,
            "translate",
            "{}",
            FORM,
            state,
            "{\"arguments\":{\"action\":\"accept\",\"content\":{\"text\":[\"a\"]}}}"))
        .contains(
            "inputResponses.arguments.content.text must be a string, a number or a boolean, not array");
    assertThat(get(
            8,
            "translate",
            "{}",
            FORM,
            state,
            "{\"arguments\":{\"action\":\"accept\",\"content\":{\"text\":\""
                + "x".repeat(FormElicitation.MAX_VALUE_CHARS + 1) + "\"}}}"))
        .contains("content.text is longer than");
    assertThat(get(9, "translate", "{}", FORM, "{}", null))
        .contains("requestState must be a string");
    for (String answer : List.of(
        get(3, "translate", "{}", FORM, state, "[]"),
        get(
            10,
            "translate",
            "{}",
            FORM,
            state,
            "{\"arguments\":{\"action\":\"accept\",\"content\":{\"text\":{}}}}"))) {
      assertThat(answer).contains("\"code\":-32602").doesNotContain("-32603");
    }
  }

  @Test
  void overHttpAFailedStateCheckIsAMalformedRequest() {
    String state = state(get(1, "translate", "{}", FORM, null, null));
    Reply bad = server
        .openStateless()
        .receive(
            new Incoming.Single(request(2, "translate", "{}", FORM, state + "x", "{}")),
            new RequestHeaders("2026-07-28", "prompts/get", "translate"))
        .run(new Recorder());
    assertThat(bad.hint()).isEqualTo(Reply.Hint.REJECTED);
    Reply asked = server
        .openStateless()
        .receive(
            new Incoming.Single(request(3, "translate", "{}", FORM, null, null)),
            new RequestHeaders("2026-07-28", "prompts/get", "translate"))
        .run(new Recorder());
    assertThat(asked.hint()).isEqualTo(Reply.Hint.ANSWERED);
    assertThat(new String(asked.encode(false), StandardCharsets.UTF_8))
        .contains("\"input_required\"");
  }

  /**
   * A renderer with a language field of two choices; it checks the language and asks for it when
   * wrong.
   */
  private record Translator(boolean elicits) implements PromptRenderer {
    private static final ArgumentField LANG = ArgumentField.builder("lang")
        .title("Language")
        .description("The language to translate into")
        .choices(List.of("French", "German"))
        .defaultValue("French")
        .required(true)
        .build();

    @Override
    public GetPromptResult render(Map<String, String> arguments) {
      String lang = arguments.get("lang");
      if (lang != null && !LANG.choices().contains(lang)) {
        throw new ArgumentsNeeded(
            "prompt 'translate': argument 'lang' must be one of French, German",
            List.of(new ArgumentsNeeded.Question(
                LANG, "must be one of French, German, not '" + lang + "'")));
      }
      String count = arguments.get("count");
      return GetPromptResult.of(
          null,
          List.of(PromptMessage.user(arguments.get("text") + " in " + lang
              + (count == null ? "" : " (" + count + " variants)"))));
    }

    @Override
    public boolean mayBlock() {
      return false;
    }

    @Override
    public ArgumentField field(String argument) {
      return argument.equals("lang") ? LANG : null;
    }
  }

  private String get(
      long id, String name, String arguments, String capabilities, String state, String responses) {
    return encode(session.handle(
        request(id, name, arguments, capabilities, state, responses), new Recorder()));
  }

  private static Request request(
      long id, String name, String arguments, String capabilities, String state, String responses) {
    return Wire.request(
        "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"prompts/get\",\"params\":{\"name\":\""
            + name + "\",\"arguments\":" + arguments
            + (state == null
                ? ""
                : ",\"requestState\":" + (state.startsWith("{") ? state : "\"" + state + "\""))
            + (responses == null ? "" : ",\"inputResponses\":" + responses)
            + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":" + capabilities + "}}}");
  }

  private static String encode(Response response) {
    return MessageCodec.encode(response);
  }

  private static JsonObject inputRequired(String answer) {
    assertThat(MODERN.checkAs("GetPromptResultResponse", answer)).as(answer).isEmpty();
    JsonObject result = ((JsonObject) JsonCodec.parse(answer)).object("result").orElseThrow();
    assertThat(MODERN.checkAs("InputRequiredResult", JsonCodec.write(result))).isEmpty();
    assertThat(result.string("resultType")).hasValue("input_required");
    return result;
  }

  private static String state(String answer) {
    return inputRequired(answer).string("requestState").orElseThrow();
  }
}
