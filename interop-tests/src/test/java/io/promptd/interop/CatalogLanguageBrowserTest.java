package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web catalog ({@code promptd serve --http --catalog}) in the visitor's language, in a real
 * headless Chromium ({@code interop/catalog-locale.mjs}): a browser asking for Japanese, then for
 * Simplified Chinese ({@code Accept-Language}, set over the DevTools protocol), gets the page's own
 * words in that language — as the DOM says them once the scripts have listed the prompts and opened
 * one — while the library's names stay as written; the heading's glyphs are drawn with a CJK font
 * (fonts-noto-cjk), and a screenshot of each goes to {@code target/catalog-screenshots/}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CatalogLanguageBrowserTest {
  private static final Path SCREENSHOTS =
      Path.of("target", "catalog-screenshots").toAbsolutePath();

  @TempDir
  Path dir;

  private Process server;

  @BeforeAll
  static void tools() throws Exception {
    Peers.requireNode();
    ReverseProxyTest.requireDebianBinary("chromium", CatalogBrowserTest.CHROMIUM.toString());
    ReverseProxyTest.requireDebianBinary(
        "fonts-noto-cjk", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc");
    Process fcList = new ProcessBuilder("fc-list", ":lang=ja", "family").start();
    String families = new String(fcList.getInputStream().readAllBytes(), UTF_8);
    assertThat(fcList.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(families).as("fc-list :lang=ja").contains("Noto Sans CJK JP");
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (server != null) {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aJapaneseOrChineseBrowserReadsThePageInItsLanguage() throws Exception {
    Path library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("lib"));
    int port = Peers.freePort();
    server = Peers.startHttp(PromptdServer.httpCommand(library, port, "--catalog"), port);
    JsonObject report = (JsonObject) JsonCodec.parse(CatalogBrowserTest.runScript(
        "catalog-locale.mjs",
        List.of("--url", "http://127.0.0.1:" + port + "/", "--languages", "ja,zh-CN")));
    assertThat(JsonCodec.write(report.get("checks")))
        .contains(
            "\"ja no page errors\":\"ok\"",
            "\"ja heading drawn with a CJK font\":\"ok\"",
            "\"zh-CN no page errors\":\"ok\"",
            "\"zh-CN heading drawn with a CJK font\":\"ok\"");
    JsonObject pages = report.object("pages").orElseThrow();

    JsonObject ja = pages.object("ja").orElseThrow();
    assertThat(ja.string("lang")).hasValue("ja");
    assertThat(ja.string("contentLanguage")).hasValue("ja");
    assertThat(ja.string("vary")).hasValue("Accept-Language");
    assertThat(ja.string("heading")).hasValue("プロンプトカタログ");
    assertThat(ja.string("title")).hasValue("Write unit tests · プロンプトカタログ");
    assertThat(ja.string("live")).hasValue("ライブ");
    assertThat(ja.string("count").orElseThrow()).matches("\\d+ 件のプロンプト");
    assertThat(ja.string("filterLabel")).hasValue("プロンプトを絞り込む");
    assertThat(ja.string("filterPlaceholder")).hasValue("名前、タイトル、説明、タグ");
    assertThat(ja.string("arguments")).hasValue("引数");
    assertThat(ja.string("render")).hasValue("レンダリング");
    assertThat(ja.string("promptName")).as("a name is never translated").hasValue("write-tests");
    assertThat(JsonCodec.write(ja.get("rules")))
        .isEqualTo("[\"必須\",\"必須 · Java, Kotlin, Python, TypeScript, Go, Rust のいずれか\","
            + "\"任意 · 選択肢は language によって変わります\"]");

    JsonObject zh = pages.object("zh-CN").orElseThrow();
    assertThat(zh.string("lang")).hasValue("zh-CN");
    assertThat(zh.string("contentLanguage")).hasValue("zh-CN");
    assertThat(zh.string("heading")).hasValue("提示词目录");
    assertThat(zh.string("live")).hasValue("实时");
    assertThat(zh.string("count").orElseThrow()).matches("\\d+ 个提示词");
    assertThat(zh.string("render")).hasValue("渲染");
    assertThat(JsonCodec.write(zh.get("rules")))
        .isEqualTo("[\"必填\",\"必填 · Java, Kotlin, Python, TypeScript, Go, Rust 之一\","
            + "\"可选 · 可选值取决于 language\"]");

    for (String shot : List.of("catalog-1440-ja.png", "catalog-1440-zh-CN.png")) {
      byte[] png = Files.readAllBytes(SCREENSHOTS.resolve(shot));
      assertThat(png).as(shot).startsWith(0x89, 'P', 'N', 'G');
      assertThat(png.length).as(shot).isGreaterThan(10_000);
    }
    Matrix.record(
        "Chromium (headless, system) → promptd web catalog",
        "http, Accept-Language ja / zh-CN",
        "modern 2026-07-28",
        "the page's words in Japanese and Chinese as the DOM reads them, names as written,"
            + " CJK glyphs from Noto CJK");
  }
}
