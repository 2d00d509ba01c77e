package io.promptd.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.server.ServerText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The catalog's own texts ({@link CatalogText}): every language has every key English has, with the
 * same placeholders; every key the scripts name exists; the language a request gets follows its
 * {@code Accept-Language} by q-value, else the server's.
 */
class CatalogTextTest {
  private static final Locale ZH = Locale.forLanguageTag("zh-CN");

  @Test
  void everyLanguageHasEveryKeyEnglishHasAndTheSamePlaceholders() {
    CatalogText english = CatalogText.of(Locale.ENGLISH);
    assertThat(english.keys()).hasSizeGreaterThan(100);
    for (Locale locale : ServerText.locales()) {
      CatalogText text = CatalogText.of(locale);
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
  void everyTextTheScriptsNameIsWritten() throws IOException {
    Set<String> named = new TreeSet<>();
    for (String script :
        new String[] {"app.js", "skills.js", "lifecycle.js", "promotions.js", "login.js"}) {
      collect(named, script, Pattern.compile("\\bt\\('([a-z0-9.-]+)'"));
      Matcher counted = Pattern.compile("\\bcounted\\('([a-z0-9.-]+)'").matcher(resource(script));
      while (counted.find()) {
        named.add(counted.group(1) + ".one");
        named.add(counted.group(1) + ".other");
      }
    }
    assertThat(named).hasSizeGreaterThan(80);
    assertThat(CatalogText.of(Locale.ENGLISH).keys()).containsAll(named);
  }

  @Test
  void valuesArePutInAsTheyAreAndAnUnwrittenKeyIsAnError() {
    CatalogText ja = CatalogText.of(Locale.JAPANESE);
    assertThat(ja.get("list.no-match", "$1 {0}")).isEqualTo("「$1 {0}」に一致するプロンプトはありません。");
    assertThat(CatalogText.of(Locale.ENGLISH).get("list.matching", 2, 5))
        .isEqualTo("2 of 5 prompts match");
    assertThat(CatalogText.of(Locale.GERMAN).locale()).isEqualTo(Locale.ENGLISH);
    assertThatThrownBy(() -> ja.get("no.such.key"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the catalog has no text 'no.such.key'");
  }

  @Test
  void theJsonHoldsEveryTextAndNothingThatEndsTheScriptElement() {
    CatalogText zh = CatalogText.of(ZH);
    String json = zh.json();
    JsonObject parsed = (JsonObject) JsonCodec.parse(json);
    Set<String> scripts = new TreeSet<>(CatalogText.of(Locale.ENGLISH).keys());
    scripts.removeIf(k -> k.startsWith("install."));
    assertThat(parsed.members().keySet()).isEqualTo(scripts);
    assertThat(parsed.string("page.heading")).hasValue("提示词目录");
    assertThat(json).doesNotContain("<", ">", "&");
    assertThat(parsed.string("promote.protected-item")).hasValue("{0}（需要作用域 {1}）");
  }

  @Test
  void theFirstSpokenLanguageByQValueIsChosen() {
    assertThat(CatalogText.choose("ja", Locale.ENGLISH)).isEqualTo(Locale.JAPANESE);
    assertThat(CatalogText.choose("ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7", Locale.ENGLISH))
        .isEqualTo(Locale.JAPANESE);
    assertThat(CatalogText.choose("zh-CN,zh;q=0.9", Locale.ENGLISH)).isEqualTo(ZH);
    assertThat(CatalogText.choose("zh-Hans", Locale.ENGLISH)).isEqualTo(ZH);
    assertThat(CatalogText.choose("en;q=0.5, ja;q=0.8", ZH))
        .as("q-values, not the order written")
        .isEqualTo(Locale.JAPANESE);
    assertThat(CatalogText.choose("ja;q=0.8, zh-CN;q=0.8", Locale.ENGLISH))
        .as("the order written among equal q-values")
        .isEqualTo(Locale.JAPANESE);
    assertThat(CatalogText.choose("de-DE, fr;q=0.9, zh-CN;q=0.2", Locale.ENGLISH))
        .as("languages promptd does not speak are passed over")
        .isEqualTo(ZH);
    assertThat(CatalogText.choose("ja;q=0, en;q=0.1", ZH))
        .as("q=0 refuses a language")
        .isEqualTo(Locale.ENGLISH);
    assertThat(CatalogText.choose("EN-gb", Locale.JAPANESE)).isEqualTo(Locale.ENGLISH);
  }

  @Test
  void aHeaderThatNamesNoSpokenLanguageGetsTheServersLanguage() {
    assertThat(CatalogText.choose(null, Locale.JAPANESE)).isEqualTo(Locale.JAPANESE);
    assertThat(CatalogText.choose("", ZH)).isEqualTo(ZH);
    assertThat(CatalogText.choose("de, fr;q=0.5", Locale.JAPANESE)).isEqualTo(Locale.JAPANESE);
    assertThat(CatalogText.choose("*", ZH)).isEqualTo(ZH);
    assertThat(CatalogText.choose("de, *;q=0.5, ja;q=0.1", ZH))
        .as("* before any spoken one: the server's")
        .isEqualTo(ZH);
    assertThat(CatalogText.choose("ja;q=0", ZH)).isEqualTo(ZH);
    assertThat(CatalogText.choose("ja_JP, ;;, zh-CN;q=oops, ja;q=2, x<y>, en;q=0.3", ZH))
        .as("malformed entries are skipped, the rest still read")
        .isEqualTo(Locale.ENGLISH);
  }

  private static void collect(Set<String> into, String resource, Pattern key) throws IOException {
    Matcher m = key.matcher(resource(resource));
    while (m.find()) {
      into.add(m.group(1));
    }
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = CatalogPage.class.getResourceAsStream(name)) {
      assertThat(in).as(name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
