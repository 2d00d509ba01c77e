package io.promptd.mcp.annotations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.spi.ServerSession;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Prompts written as annotated Java methods, served by promptd's server; and the mistakes caught at
 * registration.
 */
class AnnotatedPromptsTest {
  public enum Depth {
    SHALLOW,
    DEEP
  }

  /** The kind of class a user writes. */
  public static final class ReviewAndTripPrompts {
    @PromptMethod(title = "Code review", description = "Reviews code")
    public String review(
        @Arg(name = "code", description = "The code") String code,
        @Arg(
                name = "language",
                values = {"java", "go"})
            String language,
        @Arg(name = "depth", required = false) Depth depth,
        @Arg(name = "lines", required = false) Integer lines) {
      return "Review this " + language + " code"
          + (depth == null ? "" : " " + depth.name().toLowerCase())
          + (lines == null ? "" : " in " + lines + " lines") + ":\n" + code;
    }

    @PromptMethod(
        name = "plan_trip",
        description = "Plans a trip",
        scopes = "travel",
        elicit = false)
    public List<PromptMessage> trip(@Arg(name = "city") String city, @Arg(name = "days") int days) {
      if (city.equals("Atlantis")) {
        throw McpException.invalidParams("prompt 'plan_trip': Atlantis cannot be reached");
      }
      return List.of(
          PromptMessage.user("Plan " + days + " days in " + city),
          PromptMessage.assistant("Sure."));
    }

    @Complete(prompt = "plan_trip", argument = "city")
    public List<String> cities(String prefix, Map<String, String> arguments) {
      return List.of("Lisbon", "London", "Lyon").stream()
          .filter(c -> c.startsWith(prefix))
          .toList();
    }

    @PromptMethod(description = "Always fails")
    public GetPromptResult broken() {
      throw new IllegalStateException("secret internals");
    }

    public String notAPrompt() {
      return "ignored";
    }
  }

  private static Response call(ServerSession s, long id, String method, String params) {
    return s.handle(
        new Request(RequestId.of(id), method, (JsonObject) JsonCodec.parse(params)), m -> {});
  }

  private static String text(Response r) {
    return JsonCodec.write(((ResultResponse) r).result());
  }

  @Test
  void annotatedMethodsAreServedAsPrompts() {
    List<PromptDefinition> prompts = AnnotatedPrompts.of(new ReviewAndTripPrompts());
    assertThat(prompts)
        .extracting(PromptDefinition::name)
        .containsExactly("broken", "plan_trip", "review");
    PromptDefinition review = prompts.get(2);
    assertThat(review.prompt().title()).isEqualTo("Code review");
    assertThat(review.prompt().arguments())
        .extracting(a -> a.name() + ":" + a.required())
        .containsExactly("code:true", "language:true", "depth:false", "lines:false");
    ArgumentField depth = review.renderer().field("depth");
    assertThat(depth.choices()).containsExactly("SHALLOW", "DEEP");
    assertThat(review.renderer().field("lines").type()).isEqualTo(ArgumentField.Type.INTEGER);
    assertThat(prompts.get(1).requiredScopes()).containsExactly("travel");
    assertThat(prompts.get(1).renderer().elicits()).isFalse();

    ServerSession s =
        McpServer.builder().prompts(PromptCatalog.of(prompts)).build().openSession(m -> {});
    call(
        s,
        1,
        "initialize",
        "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","
            + "\"version\":\"1\"}}");
    Response got = call(
        s,
        2,
        "prompts/get",
        "{\"name\":\"review\",\"arguments\":{\"code\":\"x := 1\","
            + "\"language\":\"GO\",\"depth\":\"deep\",\"lines\":\"12\"}}");
    assertThat(text(got)).contains("Review this go code deep in 12 lines:\\nx := 1");
    assertThat(((ErrorResponse) call(
                s,
                3,
                "prompts/get",
                "{\"name\":\"review\",\"arguments\":{\"code\":\"x\"," + "\"language\":\"rust\"}}"))
            .message())
        .isEqualTo("prompt 'review': argument 'language' must be one of java, go");
    assertThat(((ErrorResponse) call(
                s,
                4,
                "prompts/get",
                "{\"name\":\"review\",\"arguments\":{\"code\":\"x\","
                    + "\"language\":\"go\",\"lines\":\"many\"}}"))
            .message())
        .isEqualTo("prompt 'review': argument 'lines' must be a whole number");
    assertThat(((ErrorResponse)
                call(s, 5, "prompts/get", "{\"name\":\"review\",\"arguments\":{\"code\":\"x\"}}"))
            .message())
        .isEqualTo("prompt 'review': missing required argument 'language'");
    ErrorResponse broken = (ErrorResponse) call(s, 6, "prompts/get", "{\"name\":\"broken\"}");
    assertThat(broken.code()).isEqualTo(-32603);
    assertThat(broken.message()).doesNotContain("secret").doesNotContain("IllegalState");
    assertThat(text(call(
            s,
            7,
            "completion/complete",
            "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"review\"},"
                + "\"argument\":{\"name\":\"depth\",\"value\":\"d\"}}")))
        .contains("\"values\":[\"DEEP\"]");
  }

  @Test
  void aMethodThrowingMcpExceptionKeepsItsAnswerAndCompletionsComeFromCompleteMethods()
      throws Exception {
    PromptDefinition trip = AnnotatedPrompts.of(new ReviewAndTripPrompts()).get(1);
    GetPromptResult r = trip.renderer().render(Map.of("city", "Lisbon", "days", "3"));
    assertThat(r.messages()).hasSize(2);
    assertThat(((TextContent) r.messages().getFirst().content()).text())
        .isEqualTo("Plan 3 days in Lisbon");
    assertThatThrownBy(() -> trip.renderer().render(Map.of("city", "Atlantis", "days", "3")))
        .isInstanceOfSatisfying(McpException.class, e -> assertThat(e.code()).isEqualTo(-32602))
        .hasMessageContaining("cannot be reached");
    Completion c = trip.completer().complete("city", "L", Map.of());
    assertThat(c.values()).containsExactly("Lisbon", "London", "Lyon");
    assertThat(trip.completer().complete("days", "", Map.of()).values()).isEmpty();
  }

  public static final class NoArg {
    @PromptMethod
    public String p(String unmarked) {
      return unmarked;
    }
  }

  public static final class OptionalPrimitive {
    @PromptMethod
    public String p(@Arg(name = "n", required = false) int n) {
      return "" + n;
    }
  }

  public static final class WrongReturn {
    @PromptMethod
    public int p() {
      return 1;
    }
  }

  public static final class WrongType {
    @PromptMethod
    public String p(@Arg(name = "when") Instant when) {
      return "" + when;
    }
  }

  public static final class Twice {
    @PromptMethod(name = "same")
    public String a() {
      return "a";
    }

    @PromptMethod(name = "same")
    public String b() {
      return "b";
    }
  }

  public static final class CompleteNowhere {
    @PromptMethod
    public String p(@Arg(name = "x") String x) {
      return x;
    }

    @Complete(prompt = "p", argument = "y")
    public List<String> ys(String prefix) {
      return List.of();
    }
  }

  public static final class CompleteWrongSignature {
    @PromptMethod
    public String p(@Arg(name = "x") String x) {
      return x;
    }

    @Complete(prompt = "p", argument = "x")
    public List<String> xs(int prefix) {
      return List.of();
    }
  }

  /** Prompts named by their methods, as file prompts are named: in kebab-case. */
  public static final class Named {
    @PromptMethod
    public String codeSummary() {
      return "a";
    }

    @PromptMethod
    public String review() {
      return "b";
    }

    @PromptMethod
    public String parseHTTPHeaders2() {
      return "c";
    }

    @PromptMethod(name = "keptAsGiven")
    public String other() {
      return "d";
    }
  }

  @Test
  void aPromptIsNamedByItsMethodInKebabCaseUnlessItsNameIsGiven() {
    assertThat(AnnotatedPrompts.of(new Named()))
        .extracting(d -> d.prompt().name())
        .containsExactly("code-summary", "keptAsGiven", "parse-http-headers2", "review");
    assertThat(AnnotatedPrompts.kebab("x")).isEqualTo("x");
    assertThat(AnnotatedPrompts.kebab("toURL")).isEqualTo("to-url");
    assertThat(AnnotatedPrompts.kebab("URLFor")).isEqualTo("url-for");
    assertThat(AnnotatedPrompts.kebab("plan_trip")).isEqualTo("plan_trip");
  }

  @Test
  void mistakesAreCaughtAtRegistrationNamingTheMethod() {
    assertThatThrownBy(() -> AnnotatedPrompts.of(new NoArg()))
        .hasMessageContaining("NoArg#p: parameter")
        .hasMessageContaining("needs @Arg");
    assertThatThrownBy(() -> AnnotatedPrompts.of(new OptionalPrimitive()))
        .hasMessageContaining("is a primitive int, which cannot be absent");
    assertThatThrownBy(() -> AnnotatedPrompts.of(new WrongReturn()))
        .hasMessageContaining("returns String");
    assertThatThrownBy(() -> AnnotatedPrompts.of(new WrongType()))
        .hasMessageContaining("java.time.Instant");
    assertThatThrownBy(() -> AnnotatedPrompts.of(new Twice()))
        .hasMessageContaining("is named 'same' too");
    assertThatThrownBy(() -> AnnotatedPrompts.of(new CompleteNowhere()))
        .hasMessageContaining("argument 'y'");
    assertThatThrownBy(() -> AnnotatedPrompts.of(new CompleteWrongSignature()))
        .hasMessageContaining("takes (String");
  }

  public static final class ThreeMistakes {
    @PromptMethod
    public String a(String unmarked, @Arg(name = "n", required = false) int n) {
      return unmarked + n;
    }

    @PromptMethod
    public int b() {
      return 1;
    }

    @PromptMethod
    public String ok(@Arg(name = "x") String x) {
      return x;
    }
  }

  @Test
  void everyMistakeOfAClassIsReportedAtOnce() {
    assertThatThrownBy(() -> AnnotatedPrompts.of(new ThreeMistakes()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("3 mistakes in " + ThreeMistakes.class.getName() + ":\n")
        .hasMessageContaining("ThreeMistakes#a: parameter")
        .hasMessageContaining("needs @Arg")
        .hasMessageContaining("is a primitive int, which cannot be absent")
        .hasMessageContaining("ThreeMistakes#b")
        .hasMessageContaining("returns String");
  }
}
