package io.promptd.cli;

import static io.promptd.cli.CliProcessTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.ServerText;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line's usage errors, its errors about paths and a client verb's about the server, in
 * the language the environment asks for ({@code LC_ALL}, {@code LC_MESSAGES}, {@code LANG}), as a
 * user at a Japanese or Chinese terminal reads them; English otherwise. Every language has every
 * text English has, with the same placeholders.
 */
class CliLanguageTest {
  @TempDir
  Path dir;

  private static Map<String, String> lang(String value) {
    return Map.of("LC_ALL", "", "LC_MESSAGES", "", "LANG", value);
  }

  @Test
  void anUnknownOptionIsSaidInJapaneseUnderAJapaneseLocale() throws Exception {
    CliProcessTest.Result r =
        run(List.of("serve", "--no-such-flag", dir.toString()), "", lang("ja_JP.UTF-8"));
    assertThat(r.status()).isEqualTo(Main.USAGE);
    assertThat(r.err())
        .isEqualTo(
            "promptd: 不明なオプション '--no-such-flag'\n" + "promptd: 'promptd help serve' を参照してください\n");
  }

  @Test
  void anUnknownCommandAndAMissingFolderAreSaidInChineseUnderAChineseLocale() throws Exception {
    CliProcessTest.Result command = run(List.of("sevre"), "", lang("zh_CN.UTF-8"));
    assertThat(command.status()).isEqualTo(Main.USAGE);
    assertThat(command.err()).isEqualTo("promptd: 未知命令 'sevre'\npromptd: 请参阅 'promptd help'\n");
    Path missing = dir.resolve("nowhere");
    CliProcessTest.Result check =
        run(List.of("check", missing.toString()), "", lang("zh_CN.UTF-8"));
    assertThat(check.status()).isEqualTo(Main.USAGE);
    assertThat(check.err()).startsWith("promptd: 没有这样的文件夹或文件：" + missing + "\n");
  }

  @Test
  void aMissingValueIsSaidInTheLanguageLcAllNamesAndEnglishUnderC() throws Exception {
    CliProcessTest.Result japanese = run(
        List.of("list", "--url"),
        "",
        Map.of("LC_ALL", "ja_JP.UTF-8", "LC_MESSAGES", "", "LANG", "zh_CN.UTF-8"));
    assertThat(japanese.err()).startsWith("promptd: --url には値が必要です\n");
    CliProcessTest.Result english = run(
        List.of("serve", "--no-such-flag", dir.toString()),
        "",
        Map.of("LC_ALL", "C", "LC_MESSAGES", "", "LANG", "ja_JP.UTF-8"));
    assertThat(english.err())
        .isEqualTo(
            "promptd: unknown option '--no-such-flag'\n" + "promptd: see 'promptd help serve'\n");
  }

  @Test
  void aServerThatCannotBeReachedIsSaidInJapanese() throws Exception {
    String url = "http://127.0.0.1:" + closedPort() + "/mcp";
    CliProcessTest.Result r = run(List.of("list", "--url", url), "", lang("ja_JP.UTF-8"));
    assertThat(r.status()).isEqualTo(Main.CONNECTION_FAILED);
    assertThat(r.err()).startsWith("promptd: " + url + " と通信できません：");
  }

  /** A port nothing listens on: one the system just gave out, closed again. */
  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void everyLanguageHasEveryTextEnglishHasAndTheSamePlaceholders() {
    CliText english = CliText.english();
    assertThat(english.keys()).hasSizeGreaterThan(20);
    for (Locale locale : ServerText.locales()) {
      CliText text = CliText.of(locale);
      assertThat(text.locale()).isEqualTo(locale);
      assertThat(text.keys()).as(locale.toLanguageTag()).isEqualTo(english.keys());
      for (String key : english.keys()) {
        assertThat(text.placeholders(key))
            .as(locale.toLanguageTag() + " " + key)
            .isEqualTo(english.placeholders(key));
      }
    }
  }

  /**
   * The command line reads the environment as the server does (it cannot call ServerText:
   * {@code promptd health} runs without mcp-core).
   */
  @Test
  void theEnvironmentIsReadAsTheServerReadsIt() {
    for (Map<String, String> environment : List.of(
        Map.<String, String>of(),
        lang("ja_JP.UTF-8"),
        lang("zh_TW.Big5"),
        lang("de_DE.UTF-8@euro"),
        lang("C"),
        lang("POSIX"),
        lang("en_GB"),
        Map.of("LC_ALL", "", "LC_MESSAGES", "zh_CN", "LANG", "ja_JP"),
        Map.of("LC_ALL", "ja", "LANG", "zh_CN"))) {
      assertThat(CliText.environmentLocale(environment))
          .as(environment.toString())
          .isEqualTo(ServerText.environmentLocale(environment));
    }
    assertThat(CliText.of(lang("ja_JP.eucJP"), StandardCharsets.US_ASCII).locale())
        .as("a stream that cannot write Japanese gets English, not question marks")
        .isEqualTo(Locale.ENGLISH);
    assertThat(CliText.of(lang("ja_JP.eucJP"), Charset.forName("EUC-JP")).locale())
        .isEqualTo(Locale.JAPANESE);
    assertThat(UsageException.of("option.unknown", "--x").getMessage())
        .isEqualTo("unknown option '--x'");
  }
}
