package io.promptd.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The page's own words over HTTP: in the language the request's {@code Accept-Language} asks for,
 * else the server's; {@code <html lang>}, {@code Content-Language} and {@code Vary} say which; the
 * install section's words too; the scripts' texts carried as JSON in the same language.
 */
class CatalogLanguageTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final McpServer server = CatalogFixtures.server();
  private HttpTransport http;

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
    server.close();
  }

  private void start(Locale serverLocale) throws Exception {
    http = WebCatalog.mountOn(
            HttpTransport.builder().server(server),
            List.of(new WebCatalog.Page("/", "/mcp", null)),
            null,
            false,
            new WebCatalog.Install(null, false, "PROMPTD_TOKEN"),
            serverLocale)
        .build()
        .start();
  }

  private HttpResponse<String> get(String path, @Nullable String acceptLanguage) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + http.port() + path))
        .timeout(Duration.ofSeconds(10));
    if (acceptLanguage != null) {
      request.header("Accept-Language", acceptLanguage);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void thePageIsSaidInTheLanguageTheBrowserAsksFor() throws Exception {
    start(Locale.ENGLISH);
    HttpResponse<String> ja = get("/", "ja-JP,ja;q=0.9,en;q=0.8");
    assertThat(ja.statusCode()).isEqualTo(200);
    assertThat(ja.headers().firstValue("content-language")).hasValue("ja");
    assertThat(ja.headers().firstValue("vary")).hasValue("Accept-Language");
    assertThat(ja.body())
        .contains(
            "<html lang=\"ja\"",
            "<title>プロンプトカタログ · promptd</title>",
            "<h1>プロンプトカタログ</h1>",
            "placeholder=\"名前、タイトル、説明、タグ\"",
            ">VS Code に追加</a>",
            "環境変数 <code>PROMPTD_TOKEN</code> から読み取り",
            " data-texts=\"{&quot;",
            "&quot;list.count.other&quot;:&quot;{0} 件のプロンプト&quot;")
        .doesNotContain("{{", "Prompt catalog", "Add to VS Code");

    HttpResponse<String> zh = get("/", "fr-CH, fr;q=0.9, zh-CN;q=0.5, en;q=0.4");
    assertThat(zh.headers().firstValue("content-language")).hasValue("zh-CN");
    assertThat(zh.body())
        .contains("<html lang=\"zh-CN\"", "<h1>提示词目录</h1>", ">添加到 VS Code</a>")
        .doesNotContain("{{", "Prompt catalog");
  }

  @Test
  void aBrowserThatAsksForNoLanguagePromptdSpeaksGetsTheServersLanguage() throws Exception {
    start(Locale.forLanguageTag("zh-CN"));
    for (String header : new String[] {null, "de-DE, fr;q=0.8", "*", "ja;q=0"}) {
      HttpResponse<String> page = get("/", header);
      assertThat(page.headers().firstValue("content-language")).as(header).hasValue("zh-CN");
      assertThat(page.body()).as(header).contains("<html lang=\"zh-CN\"", "<h1>提示词目录</h1>");
    }
    HttpResponse<String> english = get("/", "en-US");
    assertThat(english.headers().firstValue("content-language")).hasValue("en");
    assertThat(english.body())
        .contains(
            "<html lang=\"en\"",
            "<h1>Prompt catalog</h1>",
            "<p class=\"hint\">Adds <code id=\"install-url\">http://127.0.0.1:" + http.port()
                + "/mcp</code> as <code>promptd</code>. The token is not in these links: Cursor"
                + " and Claude Code read it from the environment variable <code>PROMPTD_TOKEN"
                + "</code>, VS Code asks for it.</p>");
  }

  /**
   * Every word a person reads in the Japanese and Chinese pages — element texts, labels,
   * placeholders — is in that language, but for names (promptd, the clients, keys) and the code
   * shown.
   */
  @Test
  void noEnglishWordIsLeftInTheJapaneseOrChinesePage() throws Exception {
    start(Locale.ENGLISH);
    for (String language : new String[] {"ja", "zh-CN"}) {
      String html = get("/", language)
          .body()
          .replaceAll("(?s)<script[^>]*>.*?</script>", "")
          .replaceAll("(?s)<code[^>]*>.*?</code>", "");
      Matcher words = Pattern.compile(">([^<]+)<| (?:aria-label|placeholder|title)=\"([^\"]*)\"")
          .matcher(html);
      List<String> english = new ArrayList<>();
      while (words.find()) {
        String said = words.group(1) != null ? words.group(1) : words.group(2);
        String rest = said.replaceAll(
            "promptd|VS Code|Cursor|Claude Code|Bearer|Ctrl\\+Enter|Enter|OAuth|ms", "");
        if (rest.matches("(?s).*[A-Za-z]{2,}.*")) {
          english.add(said.strip());
        }
      }
      assertThat(english).as(language).isEmpty();
    }
  }

  @Test
  void theSharedFilesAreTheSameInEveryLanguage() throws Exception {
    start(Locale.ENGLISH);
    HttpResponse<String> english = get("/catalog/app.js", "en");
    HttpResponse<String> japanese = get("/catalog/app.js", "ja");
    assertThat(japanese.body()).isEqualTo(english.body());
    assertThat(japanese.headers().firstValue("content-language")).isEmpty();
    assertThat(japanese.headers().firstValue("vary")).isEmpty();
  }
}
