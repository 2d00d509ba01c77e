package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * promptd's texts ({@link ServerText}): every language has every key English has and no other, with
 * the same placeholders; the language is read from a tag, a POSIX locale name, an environment or a
 * prompt's {@code _meta}.
 */
class ServerTextTest {
  @Test
  void everyLanguageHasEveryKeyEnglishHasAndTheSamePlaceholders() {
    ServerText english = ServerText.english();
    assertThat(english.keys()).isNotEmpty();
    for (Locale locale : ServerText.locales()) {
      ServerText text = ServerText.of(locale);
      assertThat(text.locale()).isEqualTo(locale);
      assertThat(text.keys()).as(locale.toLanguageTag()).isEqualTo(english.keys());
      for (String key : english.keys()) {
        assertThat(text.placeholders(key))
            .as(locale.toLanguageTag() + " " + key)
            .isEqualTo(english.placeholders(key));
      }
    }
  }

  @Test
  void valuesArePutInAsTheyAreAndAMissingKeyIsItself() {
    ServerText ja = ServerText.of(Locale.JAPANESE);
    assertThat(ja.get("argument.unknown.one", "要約", "'$1 {0}'"))
        .isEqualTo("プロンプト「要約」：不明な引数 '$1 {0}'");
    assertThat(ja.get("no.such.key")).isEqualTo("no.such.key");
  }

  @Test
  void tagsAndPosixNamesNameALanguagePromptdSpeaks() {
    assertThat(ServerText.parse("ja")).hasValue(Locale.JAPANESE);
    assertThat(ServerText.parse("ja-JP")).hasValue(Locale.JAPANESE);
    assertThat(ServerText.parse("ja_JP.UTF-8")).hasValue(Locale.JAPANESE);
    assertThat(ServerText.parse("zh_CN.GB18030")).hasValue(Locale.forLanguageTag("zh-CN"));
    assertThat(ServerText.parse("zh-Hans")).hasValue(Locale.forLanguageTag("zh-CN"));
    assertThat(ServerText.parse("en_US.UTF-8@euro")).hasValue(Locale.ENGLISH);
    assertThat(ServerText.parse("C")).hasValue(Locale.ENGLISH);
    assertThat(ServerText.parse("POSIX")).hasValue(Locale.ENGLISH);
    assertThat(ServerText.parse("de")).isEmpty();
    assertThat(ServerText.parse("klingon!")).isEmpty();
    assertThat(ServerText.parse("")).isEmpty();
  }

  @Test
  void theEnvironmentsLanguageIsLcAllThenLcMessagesThenLang() {
    assertThat(ServerText.environmentLocale(Map.of())).isEqualTo(Locale.ENGLISH);
    assertThat(ServerText.environmentLocale(Map.of("LANG", "ja_JP.UTF-8")))
        .isEqualTo(Locale.JAPANESE);
    assertThat(ServerText.environmentLocale(Map.of("LANG", "ja_JP.UTF-8", "LC_MESSAGES", "zh_CN")))
        .isEqualTo(Locale.forLanguageTag("zh-CN"));
    assertThat(ServerText.environmentLocale(
            Map.of("LANG", "ja_JP.UTF-8", "LC_MESSAGES", "zh_CN", "LC_ALL", "C")))
        .isEqualTo(Locale.ENGLISH);
    assertThat(ServerText.environmentLocale(Map.of("LC_ALL", "", "LANG", "ja_JP")))
        .as("an empty variable is not set")
        .isEqualTo(Locale.JAPANESE);
    assertThat(ServerText.environmentLocale(Map.of("LANG", "de_DE.UTF-8")))
        .isEqualTo(Locale.ENGLISH);
  }

  @Test
  void aPromptsOwnLanguageBeatsTheServersAndAnUnknownOneIsIgnored() {
    ServerText server = ServerText.of(Locale.forLanguageTag("zh-CN"));
    assertThat(ServerText.forPrompt(null, server)).isSameAs(server);
    assertThat(
            ServerText.forPrompt(meta("{\"io.promptd/locale\":\"ja\"}"), server).locale())
        .isEqualTo(Locale.JAPANESE);
    assertThat(ServerText.forPrompt(meta("{\"io.promptd/locale\":\"xx-YY\"}"), server))
        .isSameAs(server);
    assertThat(ServerText.forPrompt(meta("{\"io.promptd/locale\":7}"), server)).isSameAs(server);
  }

  private static JsonObject meta(String json) {
    return (JsonObject) JsonCodec.parse(json);
  }
}
