package io.promptd.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.catalog.links.InstallLinks;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pages' "Add to a client" section over HTTP: the links of the endpoint each page calls, at the
 * public URL or else at the address the visitor used, naming the token's variable and never a
 * token; no section unless the mounting code asks for one. (The links' own encodings:
 * InstallLinksTest; the buttons in a real browser: interop-tests' CatalogInstallLinksTest.)
 */
class CatalogInstallSectionTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final String TOKEN = "catalog-install-secret-4242";

  private McpServer server;
  private HttpTransport http;

  @BeforeEach
  void server() {
    server = CatalogFixtures.server();
  }

  @AfterEach
  void stop() {
    if (http != null) {
      http.close();
    }
    server.close();
  }

  @Test
  void withoutInstallThereIsNoSection() throws Exception {
    http = WebCatalog.mountOn(HttpTransport.builder().server(server), "/mcp", false)
        .build()
        .start();
    assertThat(page("127.0.0.1", "/")).doesNotContain("id=\"install", "{{install}}");
  }

  /**
   * With a token and no public URL: the address the visitor used, the token read from
   * $PROMPTD_TOKEN.
   */
  @Test
  void theLinksAddTheAddressTheVisitorUsedAndNameTheTokensVariable() throws Exception {
    http = WebCatalog.mountOn(
            HttpTransport.builder().server(server).bearerToken(TOKEN),
            List.of(new WebCatalog.Page("/", "/mcp", null)),
            null,
            true,
            new WebCatalog.Install(null, false, "PROMPTD_TOKEN"))
        .build()
        .start();
    for (String host : List.of("127.0.0.1", "localhost")) {
      String html = page(host, "/");
      InstallLinks.Http expected = new InstallLinks.Http(
          "promptd", URI.create("http://" + host + ":" + http.port() + "/mcp"), "PROMPTD_TOKEN");
      assertThat(href(html, "install-vscode")).isEqualTo(InstallLinks.vscodeLink(expected));
      assertThat(href(html, "install-cursor")).isEqualTo(InstallLinks.cursorLink(expected));
      assertThat(text(html, "install-claude"))
          .isEqualTo("claude mcp add --transport http promptd http://" + host + ":" + http.port()
              + "/mcp --header \"Authorization: Bearer $PROMPTD_TOKEN\"");
      assertThat(text(html, "install-url")).isEqualTo(expected.url().toString());
      assertThat(html).contains("<code>PROMPTD_TOKEN</code>").doesNotContain(TOKEN);
    }
  }

  /**
   * With a public URL: its origin and each page's endpoint, a label's page under its own name; no
   * token, no header.
   */
  @Test
  void withAPublicUrlEachPageLinksItsOwnEndpointThere() throws Exception {
    http = WebCatalog.mountOn(
            HttpTransport.builder()
                .server(server)
                .publicUrl(URI.create("https://prompts.example.com/mcp")),
            List.of(
                new WebCatalog.Page("/", "/mcp", "production"),
                new WebCatalog.Page("/labels/staging/", "/labels/staging/mcp", "staging")),
            null,
            true,
            new WebCatalog.Install(URI.create("https://prompts.example.com/mcp"), false, null))
        .build()
        .start();
    InstallLinks.Http root =
        new InstallLinks.Http("promptd", URI.create("https://prompts.example.com/mcp"), null);
    InstallLinks.Http staging = new InstallLinks.Http(
        "promptd-staging", URI.create("https://prompts.example.com/labels/staging/mcp"), null);
    String home = page("127.0.0.1", "/");
    assertThat(href(home, "install-vscode")).isEqualTo(InstallLinks.vscodeLink(root));
    assertThat(href(home, "install-cursor")).isEqualTo(InstallLinks.cursorLink(root));
    assertThat(home).doesNotContain("Authorization", "The token is not in these links");
    String labelPage = page("127.0.0.1", "/labels/staging/");
    assertThat(href(labelPage, "install-vscode")).isEqualTo(InstallLinks.vscodeLink(staging));
    assertThat(text(labelPage, "install-claude"))
        .isEqualTo("claude mcp add --transport http promptd-staging"
            + " https://prompts.example.com/labels/staging/mcp");
  }

  @Test
  void aHeadAnswerHasTheLengthOfThePageAsItIsServed() throws Exception {
    http = WebCatalog.mountOn(
            HttpTransport.builder().server(server),
            List.of(new WebCatalog.Page("/", "/mcp", null)),
            null,
            false,
            new WebCatalog.Install(null, true, null))
        .build()
        .start();
    String html = page("127.0.0.1", "/");
    assertThat(text(html, "install-url")).isEqualTo("https://127.0.0.1:" + http.port() + "/mcp");
    HttpResponse<Void> head = HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/"))
            .method("HEAD", HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(head.headers().firstValueAsLong("content-length").orElseThrow())
        .isEqualTo(html.getBytes(StandardCharsets.UTF_8).length);
  }

  @Test
  void installIsCheckedWhereItIsMade() {
    assertThatThrownBy(() -> new WebCatalog.Install(URI.create("ftp://h/mcp"), false, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "WebCatalog.Install: the public URL must be an http or https URL with a host, not"
                + " 'ftp://h/mcp'");
    assertThatThrownBy(() -> new WebCatalog.Install(null, false, "TOKEN VAR"))
        .hasMessageContaining("environment variable's name, not 'TOKEN VAR'");
  }

  private String page(String host, String path) throws Exception {
    HttpResponse<String> r = HTTP.send(
        HttpRequest.newBuilder(URI.create("http://" + host + ":" + http.port() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(host + path).isEqualTo(200);
    return r.body();
  }

  /** The {@code href} of the element with {@code id}, unescaped as a browser reads it. */
  private static String href(String html, String id) {
    Matcher m = Pattern.compile("id=\"" + id + "\" href=\"([^\"]*)\"").matcher(html);
    assertThat(m.find()).as("an element " + id + " with an href").isTrue();
    return unescape(m.group(1));
  }

  /** The text of the {@code <code>} element with {@code id}, unescaped. */
  private static String text(String html, String id) {
    Matcher m = Pattern.compile("<code id=\"" + id + "\">([^<]*)</code>").matcher(html);
    assertThat(m.find()).as("a code element " + id).isTrue();
    return unescape(m.group(1));
  }

  private static String unescape(String s) {
    return s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
  }
}
