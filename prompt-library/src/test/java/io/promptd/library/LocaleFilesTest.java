package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code locale:} in the front matter: the prompt's forms and argument errors are in its language
 * whatever the server's; a language promptd does not speak is a warning with its line, and the
 * prompt speaks the server's language.
 */
class LocaleFilesTest {
  private static final String FORM = "{\"elicitation\":{\"form\":{}}}";

  @TempDir
  Path root;

  private static String prompt(String settings) {
    return "---\ndescription: Says it\n" + settings
        + "arguments:\n  - name: text\n    required: true\n---\nTEXT=[{{text}}]\n";
  }

  @Test
  void aPromptsLocaleBeatsTheServersForItsFormAndItsErrors() {
    write(root, "ja.prompt.md", prompt("locale: ja\n"));
    write(root, "plain.prompt.md", prompt(""));
    try (Library library = load(root);
        McpServer server = McpServer.builder()
            .prompts(library.catalog())
            .locale(Locale.forLanguageTag("zh-CN"))
            .build()) {
      assertThat(library.diagnostics()).as("the key is known").isEmpty();
      ServerSession session = server.openSession(Outbound.discard());
      assertThat(call(session, "{\"name\":\"ja\"}", FORM))
          .contains("\"message\":\"プロンプト「ja」を使うには、次の入力が必要です：「text」は必須です。\"");
      assertThat(call(session, "{\"name\":\"ja\"}", "{}"))
          .contains("\"message\":\"プロンプト「ja」：必須の引数 'text' がありません\"");
      assertThat(call(session, "{\"name\":\"plain\"}", "{}"))
          .contains("\"message\":\"提示词“plain”：缺少必填参数 'text'\"");
    }
  }

  @Test
  void aLanguagePromptdDoesNotSpeakIsAWarningAndTheServersIsUsed() {
    write(root, "de.prompt.md", prompt("locale: de\n"));
    try (Library library = load(root);
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .singleElement()
          .asString()
          .startsWith(root.resolve("de.prompt.md") + ":3: warning:")
          .contains("'locale' must be en, zh-CN or ja, not 'de'");
      ServerSession session = server.openSession(Outbound.discard());
      assertThat(call(session, "{\"name\":\"de\"}", "{}"))
          .contains("\"message\":\"prompt 'de': missing required argument 'text'\"");
    }
  }

  @Test
  void theSkillPromptsTaskIsDescribedInTheLibrarysLanguage() throws Exception {
    write(
        root,
        "minutes/SKILL.md",
        "---\nname: minutes\ndescription: Takes minutes.\n---\nTake them.\n");
    LibraryOptions japanese =
        LibraryOptions.builder().cacheDirectory(null).locale(Locale.JAPANESE).build();
    try (Library library = Library.open(LibrarySource.folders(List.of(root)), japanese)) {
      assertThat(library.catalog().get("minutes").orElseThrow().prompt().arguments())
          .singleElement()
          .extracting(PromptArgument::description)
          .isEqualTo("このスキルを何に使うか（省略可）");
    }
    try (Library library = load(root)) {
      assertThat(library.catalog().get("minutes").orElseThrow().prompt().arguments())
          .singleElement()
          .extracting(PromptArgument::description)
          .isEqualTo("What to use the skill for (optional)");
    }
  }

  private static String call(ServerSession session, String params, String capabilities) {
    String text = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":"
        + params.substring(0, params.length() - 1)
        + ",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":" + capabilities + ","
        + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}}";
    Request request = (Request) ((Incoming.Single) MessageCodec.decode(text)).message();
    return MessageCodec.encode(session.handle(request, Outbound.discard()));
  }
}
