package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The texts a person reads — a form's frame and field hints, an argument error — in the server's
 * locale, or in the prompt's own ({@value ServerText#LOCALE_META}).
 */
@Timeout(30)
class LocalizedTextTest {
  private static final String FORM = "{\"elicitation\":{\"form\":{}}}";
  private static final String CLIENT = "{\"name\":\"some-client\",\"version\":\"1\"}";
  private static final String CLAUDE = "{\"name\":\"claude-code\",\"version\":\"2.1.328\"}";

  private final List<McpServer> servers = new ArrayList<>();
  private final List<ServerSession> sessions = new ArrayList<>();

  @AfterEach
  void close() {
    sessions.forEach(ServerSession::close);
    servers.forEach(McpServer::close);
  }

  @Test
  void aFormAsksInTheServersLanguage() {
    assertThat(form(server(Locale.ENGLISH, null), "{\"name\":\"review\"}"))
        .isEqualTo("The prompt 'review' needs more from you: File is required; ticket is required."
            + " | What to review | Must match the pattern [A-Z]+-[0-9]+.");
    assertThat(form(server(Locale.forLanguageTag("zh-CN"), null), "{\"name\":\"review\"}"))
        .isEqualTo("提示词“review”还需要你补充：“File”为必填项；“ticket”为必填项。"
            + " | What to review | 必须符合模式 [A-Z]+-[0-9]+。");
    assertThat(form(server(Locale.JAPANESE, null), "{\"name\":\"review\"}"))
        .isEqualTo("プロンプト「review」を使うには、次の入力が必要です：「File」は必須です。「ticket」は必須です。"
            + " | What to review | パターン [A-Z]+-[0-9]+ に一致する必要があります。");
  }

  @Test
  void aFormThatShowsValuesForCheckingSaysSoInTheServersLanguage() {
    String args = "{\"name\":\"review\",\"arguments\":{\"file\":\"a b\",\"ticket\":\"AB-1\"}}";
    assertThat(formMessage(server(Locale.JAPANESE, null), args, CLAUDE))
        .isEqualTo("プロンプト「review」は次の値を使います。内容を確認してから承認してください。");
    assertThat(formMessage(server(Locale.forLanguageTag("zh-CN"), null), args, CLAUDE))
        .isEqualTo("提示词“review”将使用下面这些值：请检查无误后再确认。");
  }

  @Test
  void anArgumentErrorIsInTheServersLanguage() {
    assertThat(error(server(Locale.ENGLISH, null), "{\"name\":\"review\"}"))
        .isEqualTo("prompt 'review': missing required arguments 'file', 'ticket'");
    assertThat(error(server(Locale.forLanguageTag("zh-CN"), null), "{\"name\":\"review\"}"))
        .isEqualTo("提示词“review”：缺少必填参数 'file', 'ticket'");
    assertThat(error(server(Locale.JAPANESE, null), "{\"name\":\"review\"}"))
        .isEqualTo("プロンプト「review」：必須の引数 'file', 'ticket' がありません");
    String unknown =
        "{\"name\":\"review\",\"arguments\":{\"file\":\"f\",\"ticket\":\"A-1\",\"文章\":\"x\"}}";
    assertThat(error(server(Locale.ENGLISH, null), unknown))
        .isEqualTo("prompt 'review': unknown argument '文章'");
    assertThat(error(server(Locale.forLanguageTag("zh-CN"), null), unknown))
        .isEqualTo("提示词“review”：未知参数 '文章'");
    assertThat(error(server(Locale.JAPANESE, null), unknown)).isEqualTo("プロンプト「review」：不明な引数 '文章'");
  }

  @Test
  void aPromptsOwnLanguageBeatsTheServersAndAnUnknownOneIsIgnored() {
    JsonObject japanese = (JsonObject) JsonCodec.parse("{\"io.promptd/locale\":\"ja\"}");
    McpServer server = server(Locale.forLanguageTag("zh-CN"), japanese);
    assertThat(form(server, "{\"name\":\"review\"}")).startsWith("プロンプト「review」を使うには");
    assertThat(error(server, "{\"name\":\"review\"}"))
        .isEqualTo("プロンプト「review」：必須の引数 'file', 'ticket' がありません");
    JsonObject unknown = (JsonObject) JsonCodec.parse("{\"io.promptd/locale\":\"tlh\"}");
    assertThat(error(server(Locale.forLanguageTag("zh-CN"), unknown), "{\"name\":\"review\"}"))
        .isEqualTo("提示词“review”：缺少必填参数 'file', 'ticket'");
  }

  @Test
  void aLanguagePromptdDoesNotSpeakIsEnglish() {
    assertThat(error(server(Locale.GERMAN, null), "{\"name\":\"review\"}"))
        .isEqualTo("prompt 'review': missing required arguments 'file', 'ticket'");
  }

  /** review: file (required, titled) and ticket (required, a pattern). */
  private McpServer server(Locale locale, @Nullable JsonObject meta) {
    McpServer server = McpServer.builder().locale(locale).build();
    servers.add(server);
    server
        .prompts()
        .put(new PromptDefinition(
            new Prompt(
                "review",
                null,
                "Reviews",
                List.of(
                    new PromptArgument("file", "File", "What to review", true),
                    new PromptArgument("ticket", null, null, true)),
                List.of(),
                meta),
            new Reviewer(),
            null));
    return server;
  }

  /** The form's message, then the two fields' descriptions, split by " | ". */
  private String form(McpServer server, String params) {
    JsonObject form = formParams(server, params, CLIENT);
    JsonObject properties =
        form.object("requestedSchema").orElseThrow().object("properties").orElseThrow();
    return form.string("message").orElseThrow()
        + " | " + properties.object("file").orElseThrow().string("description").orElseThrow()
        + " | "
        + properties.object("ticket").orElseThrow().string("description").orElseThrow();
  }

  private String formMessage(McpServer server, String params, String client) {
    return formParams(server, params, client).string("message").orElseThrow();
  }

  private JsonObject formParams(McpServer server, String params, String client) {
    JsonObject result = ((JsonObject) JsonCodec.parse(modern(server, params, FORM, client)))
        .object("result")
        .orElseThrow();
    assertThat(result.string("resultType")).hasValue("input_required");
    return result
        .object("inputRequests")
        .orElseThrow()
        .object("arguments")
        .orElseThrow()
        .object("params")
        .orElseThrow();
  }

  /** The -32602 message for a client that cannot show forms. */
  private String error(McpServer server, String params) {
    JsonObject error = ((JsonObject) JsonCodec.parse(modern(server, params, "{}", CLIENT)))
        .object("error")
        .orElseThrow();
    assertThat(JsonCodec.write(error.get("code"))).isEqualTo("-32602");
    return error.string("message").orElseThrow();
  }

  private String modern(McpServer server, String params, String capabilities, String client) {
    ServerSession s = server.openSession(new Recorder());
    sessions.add(s);
    String withMeta = params.substring(0, params.length() - 1)
        + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":" + capabilities + ","
        + "\"io.modelcontextprotocol/clientInfo\":" + client + "}}";
    return MessageCodec.encode(s.handle(
        Wire.request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":"
            + withMeta + "}"),
        new Recorder()));
  }

  private static final class Reviewer implements PromptRenderer {
    private static final ArgumentField FILE = ArgumentField.builder("file")
        .title("File")
        .description("What to review")
        .required(true)
        .build();
    private static final ArgumentField TICKET =
        ArgumentField.builder("ticket").pattern("[A-Z]+-[0-9]+").required(true).build();

    @Override
    public GetPromptResult render(Map<String, String> arguments) {
      return GetPromptResult.of(
          null,
          List.of(PromptMessage.user(
              "Review " + arguments.get("file") + " for " + arguments.get("ticket"))));
    }

    @Override
    public boolean mayBlock() {
      return false;
    }

    @Override
    public @Nullable ArgumentField field(String argument) {
      return switch (argument) {
        case "file" -> FILE;
        case "ticket" -> TICKET;
        default -> null;
      };
    }
  }
}
