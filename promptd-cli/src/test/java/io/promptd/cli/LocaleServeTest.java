package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve --locale}: the forms and argument errors a client shows its user are in the server's
 * language, which comes from the flag, else from the environment ({@code LC_ALL},
 * {@code LC_MESSAGES}, {@code LANG}); a language promptd does not speak is a usage error.
 */
class LocaleServeTest {
  private static final Path FIXTURES = Path.of(System.getProperty("promptd.root", ".."))
      .toAbsolutePath()
      .normalize()
      .resolve("fixtures/conformance");
  private static final String FORM_REQUEST =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{\"name\":"
          + "\"test_prompt_with_arguments\",\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
          + "\"io.modelcontextprotocol/clientCapabilities\":{\"elicitation\":{\"form\":{}}}}}}\n";
  /** A legacy stdio session that cannot show forms, asking without the required arguments. */
  private static final String LEGACY_SESSION =
      "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
          + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
          + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\",\"params\":{\"name\":"
          + "\"test_prompt_with_arguments\"}}\n";

  @TempDir
  Path dir;

  private static final Map<String, String> NO_LOCALE =
      Map.of("LC_ALL", "", "LC_MESSAGES", "", "LANG", "");

  @Test
  void serveLocaleJaAsksAndRefusesInJapaneseOverStdio() throws Exception {
    CliProcessTest.Result asked = CliProcessTest.run(
        List.of("serve", "--no-watch", "--locale", "ja", FIXTURES.toString()),
        FORM_REQUEST,
        NO_LOCALE);
    assertThat(asked.out())
        .as(asked.err())
        .contains(
            "\"method\":\"elicitation/create\"",
            "\"message\":\"プロンプト「test_prompt_with_arguments」を使うには、次の入力が必要です：",
            "は必須です");
    CliProcessTest.Result refused = CliProcessTest.run(
        List.of("serve", "--no-watch", "--locale", "ja", FIXTURES.toString()),
        LEGACY_SESSION,
        NO_LOCALE);
    assertThat(refused.out())
        .as(refused.err())
        .contains(
            "\"code\":-32602", "プロンプト「test_prompt_with_arguments」：必須の引数 'arg1', 'arg2' がありません");
  }

  @Test
  void theSkillPromptsTaskIsDescribedInTheServersLanguage() throws Exception {
    Files.createDirectories(dir.resolve("minutes"));
    Files.writeString(
        dir.resolve("minutes/SKILL.md"),
        "---\nname: minutes\ndescription: Takes minutes.\n---\nTake them.\n");
    String list = LEGACY_SESSION.replace(
        "\"method\":\"prompts/get\",\"params\":{\"name\":\"test_prompt_with_arguments\"}",
        "\"method\":\"prompts/list\",\"params\":{}");
    CliProcessTest.Result listed = CliProcessTest.run(
        List.of("serve", "--no-watch", "--locale", "zh-CN", dir.toString()), list, NO_LOCALE);
    assertThat(listed.out()).as(listed.err()).contains("\"description\":\"要用这个技能做什么（可选）\"");
  }

  @Test
  void withoutTheFlagTheEnvironmentsLanguageIsUsed() throws Exception {
    CliProcessTest.Result chinese = CliProcessTest.run(
        List.of("serve", "--no-watch", FIXTURES.toString()),
        LEGACY_SESSION,
        Map.of("LC_ALL", "", "LC_MESSAGES", "", "LANG", "zh_CN.UTF-8"));
    assertThat(chinese.out())
        .as(chinese.err())
        .contains("提示词“test_prompt_with_arguments”：缺少必填参数 'arg1', 'arg2'");
    CliProcessTest.Result english = CliProcessTest.run(
        List.of("serve", "--no-watch", FIXTURES.toString()), LEGACY_SESSION, NO_LOCALE);
    assertThat(english.out()).contains("prompt 'test_prompt_with_arguments': missing required");
  }

  @Test
  void aLanguagePromptdDoesNotSpeakIsAUsageError() throws Exception {
    CliProcessTest.Result result = CliProcessTest.run(
        List.of("serve", "--no-watch", "--locale", "de", FIXTURES.toString()), "", NO_LOCALE);
    assertThat(result.status()).isEqualTo(Main.USAGE);
    assertThat(result.err()).contains("--locale must be en, zh-CN or ja, not 'de'");
  }

  @Test
  void theFlagBeatsTheEnvironmentAndTheEnvironmentIsReadLikePosixPrograms() {
    Map<String, String> japanese = Map.of("LANG", "ja_JP.UTF-8");
    assertThat(ServeOptions.locale(null, japanese)).isEqualTo(Locale.JAPANESE);
    assertThat(ServeOptions.locale("zh-CN", japanese)).isEqualTo(Locale.forLanguageTag("zh-CN"));
    assertThat(ServeOptions.locale("en", japanese)).isEqualTo(Locale.ENGLISH);
    assertThat(ServeOptions.locale(null, Map.of("LC_ALL", "C", "LANG", "ja_JP.UTF-8")))
        .isEqualTo(Locale.ENGLISH);
    assertThat(ServeOptions.locale(null, Map.of())).isEqualTo(Locale.ENGLISH);
  }
}
