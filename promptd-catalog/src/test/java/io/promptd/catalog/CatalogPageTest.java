package io.promptd.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.http.HttpTransportBuilder;
import io.promptd.mcp.http.RequestEvent;
import io.promptd.mcp.server.McpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The web catalog's files over HTTP: off unless asked for; its security headers; served without a
 * token (they hold no library content) while the endpoint keeps requiring one; without
 * authentication only to loopback visitors unless a public URL is configured. (The page itself is
 * tested in a real browser: interop-tests' CatalogBrowserTest.) Mounted as the CLI mounts it: open
 * to all when requests are authenticated or a public URL is configured.
 */
class CatalogPageTest {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
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

  /** The catalog on the default MCP path, as {@code serve --catalog} mounts it. */
  private static HttpTransportBuilder catalog(HttpTransportBuilder http, boolean openToAll) {
    return WebCatalog.mountOn(http, "/mcp", openToAll);
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + path))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private int rawGet(String host) throws IOException {
    return CatalogFixtures.rawStatus(http.port(), "GET / HTTP/1.1\r\nHost: " + host + "\r\n", "");
  }

  @Test
  void offByDefault() throws Exception {
    http = HttpTransport.builder().server(server).build().start();
    assertThat(get("/").statusCode()).isEqualTo(404);
    assertThat(get("/catalog/app.js").statusCode()).isEqualTo(404);
  }

  @Test
  void servesThePageWithItsSecurityHeaders() throws Exception {
    http = WebCatalog.mountOn(
            HttpTransport.builder().server(server).path("/api/mcp"), "/api/mcp", false)
        .build()
        .start();
    HttpResponse<String> page = get("/");
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.headers().firstValue("content-type")).hasValue("text/html; charset=utf-8");
    assertThat(page.body())
        .contains(
            "data-endpoint=\"/api/mcp\" data-label=\"\" data-manage=\"\" data-login-client=\"\"",
            "<script src=\"/catalog/app.js\" defer>")
        .doesNotContain("{{");
    for (String path : CatalogPage.PATHS) {
      HttpResponse<String> r = get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      String csp = r.headers().firstValue("content-security-policy").orElseThrow();
      assertThat(csp)
          .as(path)
          .contains(
              "default-src 'none'",
              "script-src 'self'",
              "connect-src 'self'",
              "frame-ancestors 'none'",
              "require-trusted-types-for 'script'")
          .doesNotContain("unsafe");
      assertThat(r.headers().firstValue("x-content-type-options")).as(path).hasValue("nosniff");
      assertThat(r.headers().firstValue("x-frame-options")).as(path).hasValue("DENY");
    }
    assertThat(get("/catalog/app.js").headers().firstValue("content-type"))
        .hasValue("text/javascript; charset=utf-8");
    assertThat(get("/catalog/skills.js").headers().firstValue("content-type"))
        .hasValue("text/javascript; charset=utf-8");
    assertThat(get("/catalog/nothing.js").statusCode()).isEqualTo(404);
    HttpResponse<Void> head = HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/catalog/app.js"))
            .method("HEAD", HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.headers().firstValueAsLong("content-length").orElseThrow())
        .isEqualTo(get("/catalog/app.js").body().getBytes(StandardCharsets.UTF_8).length);
    HttpResponse<String> post = HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port() + "/"))
            .POST(HttpRequest.BodyPublishers.ofString("x"))
            .timeout(Duration.ofSeconds(10))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
  }

  @Test
  void foreignHostsAndOriginsAreRefusedAsForTheEndpoint() throws Exception {
    http = catalog(HttpTransport.builder().server(server), false).build().start();
    assertThat(rawGet("evil.example.com")).isEqualTo(403);
    assertThat(rawGet("127.0.0.1:" + http.port())).isEqualTo(200);
    assertThat(rawGet("localhost:" + http.port())).isEqualTo(200);
  }

  @Test
  void withoutAuthenticationOnlyLoopbackVisitorsUnlessAPublicUrlIsSet() throws Exception {
    // Behind a proxy on this machine that names the server otherwise: the visitor may be anyone.
    http = catalog(
            HttpTransport.builder().server(server).allowedHosts(List.of("proxy.example:8080")),
            false)
        .build()
        .start();
    assertThat(rawGet("proxy.example:8080")).isEqualTo(403);
    assertThat(rawGet("127.0.0.1:" + http.port())).isEqualTo(200);
    http.close();
    http = catalog(
            HttpTransport.builder()
                .server(server)
                .publicUrl(URI.create("https://prompts.example.com/mcp")),
            true)
        .build()
        .start();
    assertThat(rawGet("prompts.example.com")).isEqualTo(200);
  }

  @Test
  void withATokenThePageLoadsWithoutItAndTheLibraryDoesNot() throws Exception {
    http = catalog(
            HttpTransport.builder()
                .server(server)
                .bearerToken("catalog-token-1234")
                .allowedHosts(List.of("proxy.example:8080")),
            true)
        .build()
        .start();
    assertThat(get("/").statusCode()).isEqualTo(200);
    assertThat(rawGet("proxy.example:8080"))
        .as("with auth the page may be served to anyone")
        .isEqualTo(200);
    assertThat(CatalogFixtures.listPrompts(http.uri()).statusCode()).isEqualTo(401);
  }

  /**
   * Like the probes, the page's files raise no request event (no metric, no access-log line); its
   * MCP calls do.
   */
  @Test
  void thePageFilesRaiseNoRequestEvents() throws Exception {
    BlockingQueue<RequestEvent> events = new LinkedBlockingQueue<>();
    http = catalog(HttpTransport.builder().server(server).onRequest(events::add), false)
        .build()
        .start();
    for (String path : CatalogPage.PATHS) {
      assertThat(get(path).statusCode()).isEqualTo(200);
    }
    assertThat(CatalogFixtures.listPrompts(http.uri()).statusCode()).isEqualTo(200);
    RequestEvent first = events.poll(10, TimeUnit.SECONDS);
    assertThat(first).isNotNull();
    assertThat(first.method()).isEqualTo("prompts/list");
    assertThat(events).isEmpty();
  }

  @Test
  void anMcpPathThatWouldHideThePageIsRefused() {
    assertThatThrownBy(() ->
            catalog(HttpTransport.builder().server(server).path("/"), false).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("would hide it");
  }

  /**
   * The skills section: the page holds it, hidden until the server lists a skill, and loads its
   * script after the client it uses; the script lists with {@code skills/list}, reads a file with
   * {@code resources/read} (whose {@code Mcp-Name} the client sets) and is reloaded by the live
   * stream on every resources list change.
   */
  @Test
  void thePageHasASkillsSectionThatFollowsResourceChanges() throws IOException {
    String html = resource("index.html");
    assertThat(html)
        .contains(
            "<script src=\"/catalog/app.js\" defer></script>\n"
                + "<script src=\"/catalog/skills.js\" defer></script>\n"
                + "<script src=\"/catalog/lifecycle.js\" defer></script>\n",
            """
              <section class="skills" id="skills" aria-labelledby="skills-title" hidden>
                <h2 id="skills-title">Skills</h2>
                <p class="count" id="skills-count" aria-live="polite"></p>
                <ul class="skill-list" id="skill-list"></ul>
              </section>
            </main>
            """);
    String app = resource("app.js");
    assertThat(app)
        .contains(
            "{ notifications: { promptsListChanged: true, resourcesListChanged: true } }",
            "} else if (message.method === 'notifications/resources/list_changed') {\n"
                + "          reloadSkills();",
            "} else if (method === 'resources/read') {\n"
                + "    headers['Mcp-Name'] = headerValue(params.uri);");
    assertThat(resource("skills.js"))
        .contains(
            "await call('skills/list', cursor ? { cursor } : {})",
            "await call('resources/read', { uri })",
            "e.code === -32601");
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = CatalogPage.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * The scripts build the page from text only: no HTML parser, no code from strings (Trusted Types
   * enforce it too).
   */
  @Test
  void theScriptsHaveNoHtmlOrCodeSinks() throws IOException {
    for (String name :
        List.of("app.js", "skills.js", "lifecycle.js", "promotions.js", "login.js")) {
      assertThat(resource(name))
          .as(name)
          .doesNotContain(
              "innerHTML",
              "outerHTML",
              "insertAdjacentHTML",
              "document.write",
              "eval(",
              "new Function",
              "srcdoc",
              "javascript:");
    }
  }

  /**
   * A page per label (as {@code serve --label production --label staging --catalog} mounts them)
   * with a management API: each page names its endpoint, its label and the API; a page's path
   * without its slash redirects to it; the shared files are served once; every answer carries the
   * page's policy.
   */
  @Test
  void aPagePerLabelNamesItsEndpointLabelAndTheManagementApi() throws Exception {
    http = WebCatalog.mountOn(
            HttpTransport.builder().server(server),
            List.of(
                new WebCatalog.Page("/", "/mcp", "production"),
                new WebCatalog.Page("/labels/staging/", "/labels/staging/mcp", "staging")),
            "/manage/v1",
            false)
        .build()
        .start();
    assertThat(get("/").body())
        .contains("<html lang=\"en\" data-endpoint=\"/mcp\" data-label=\"production\""
            + " data-manage=\"/manage/v1\" data-login-client=\"\">");
    HttpResponse<String> staging = get("/labels/staging/");
    assertThat(staging.statusCode()).isEqualTo(200);
    assertThat(staging.body())
        .contains(
            "<html lang=\"en\" data-endpoint=\"/labels/staging/mcp\" data-label=\"staging\""
                + " data-manage=\"/manage/v1\" data-login-client=\"\">",
            "<script src=\"/catalog/lifecycle.js\" defer></script>");
    assertThat(staging.headers().firstValue("content-security-policy"))
        .hasValue(CatalogPage.CONTENT_SECURITY_POLICY);
    HttpResponse<String> bare = get("/labels/staging");
    assertThat(bare.statusCode()).isEqualTo(308);
    assertThat(bare.headers().firstValue("location")).hasValue("/labels/staging/");
    assertThat(bare.headers().firstValue("content-security-policy"))
        .hasValue(CatalogPage.CONTENT_SECURITY_POLICY);
    assertThat(get("/labels/other/").statusCode()).isEqualTo(404);
    assertThat(get("/catalog/lifecycle.js").statusCode()).isEqualTo(200);
    assertThat(get("/catalog/promotions.js").statusCode()).isEqualTo(200);
  }

  /**
   * What goes into the page's attributes is escaped: a value cannot close the attribute or open an
   * element.
   */
  @Test
  void attributeValuesCannotInjectMarkup() throws Exception {
    http = WebCatalog.mountOn(
            HttpTransport.builder().server(server).path("/x"),
            List.of(new WebCatalog.Page(
                "/", "/mcp\"><script>alert(1)</script>", "a\" onload=\"alert(2)&<b>")),
            "/manage\"><img src=x>",
            false)
        .build()
        .start();
    String html = get("/").body();
    assertThat(html)
        .contains(
            "data-endpoint=\"/mcp&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\"",
            "data-label=\"a&quot; onload=&quot;alert(2)&amp;&lt;b&gt;\"",
            "data-manage=\"/manage&quot;&gt;&lt;img src=x&gt;\"")
        .doesNotContain("<script>alert", "<img src=x", "onload=\"");
  }

  @Test
  void pagesAreCheckedWhereTheyAreMade() {
    assertThatThrownBy(() -> new WebCatalog.Page("/labels/staging", "/labels/staging/mcp", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("WebCatalog.Page: the path must start and end with '/', not '/labels/staging'");
    assertThatThrownBy(() -> new WebCatalog.Page("/", "mcp", null))
        .hasMessage("WebCatalog.Page: the endpoint must be an absolute path, not 'mcp'");
    HttpTransportBuilder builder = HttpTransport.builder().server(server);
    assertThatThrownBy(() -> WebCatalog.mountOn(
            builder,
            List.of(new WebCatalog.Page("/", "/mcp", null), new WebCatalog.Page("/", "/b", null)),
            null,
            false))
        .hasMessage("WebCatalog.mountOn: the page path / is given twice");
    assertThatThrownBy(() -> WebCatalog.mountOn(builder, List.of(), null, false))
        .hasMessage("WebCatalog.mountOn: no page to mount");
  }

  /**
   * The lifecycle section: hidden in the page until a prompt is selected on a server with a
   * management API; its script asks the API (with the token the visitor gave for the endpoint) for
   * versions, a diff, a label move and usage, and the page's script shows it on each selection.
   */
  @Test
  void theLifecycleSectionUsesTheManagementApiWithTheVisitorsToken() throws IOException {
    assertThat(resource("index.html"))
        .contains(
            "<section class=\"lifecycle\" id=\"lifecycle\" hidden aria-label=\"Versions, labels and usage\">");
    assertThat(resource("app.js")).contains("showLifecycle(name);");
    assertThat(resource("lifecycle.js"))
        .contains(
            "const MANAGE = document.documentElement.dataset.manage || '';",
            "headers['Authorization'] = 'Bearer ' + state.token;",
            "manage('GET', '/versions' + query({ name }))",
            "manage('GET', '/diff' + query({ name, from, to }))",
            "manage('POST', '/labels', { name, version, label })",
            "manage('GET', '/usage' + query({ name, since: USAGE_SINCE }))",
            "credentials: 'omit'");
    assertThat(resource("index.html"))
        .contains("<script src=\"/catalog/promotions.js\" defer></script>");
    assertThat(resource("promotions.js"))
        .contains(
            "manage('GET', '/promotions')",
            "manage('POST', '/promotions/revert', { promotion: n })");
  }

  /**
   * A catalog that logs people in: each page names the client; every answer's policy lets the page
   * call the issuer's origin (its metadata and token endpoint) besides its own, and nothing else is
   * widened.
   */
  @Test
  void aCatalogThatLogsPeopleInMayCallTheIssuersOriginAndNoOther() throws Exception {
    WebCatalog.Login login =
        new WebCatalog.Login(URI.create("https://ID.example.com:8443/realms/team"), "catalog\"<x>");
    http = WebCatalog.mountOn(
            HttpTransport.builder().server(server),
            List.of(
                new WebCatalog.Page("/", "/mcp", null),
                new WebCatalog.Page("/labels/staging/", "/labels/staging/mcp", "staging")),
            null,
            true,
            null,
            Locale.ENGLISH,
            login)
        .build()
        .start();
    String policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
        + " connect-src 'self' https://id.example.com:8443; base-uri 'none'; form-action 'none';"
        + " frame-ancestors 'none'; require-trusted-types-for 'script'; trusted-types 'none'";
    assertThat(CatalogPage.contentSecurityPolicy(login)).isEqualTo(policy);
    assertThat(CatalogPage.contentSecurityPolicy(null))
        .isEqualTo(CatalogPage.CONTENT_SECURITY_POLICY)
        .isEqualTo(policy.replace(" https://id.example.com:8443", ""));
    for (String path : List.of("/", "/labels/staging/", "/catalog/login.js", "/catalog/app.css")) {
      HttpResponse<String> r = get(path);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.headers().firstValue("content-security-policy")).as(path).hasValue(policy);
    }
    assertThat(get("/").body())
        .contains(
            "data-login-client=\"catalog&quot;&lt;x&gt;\"",
            "<script src=\"/catalog/login.js\" defer></script>",
            "<button type=\"button\" class=\"primary\" id=\"login\">Log in</button>");
    assertThat(get("/catalog/login.js").headers().firstValue("content-type"))
        .hasValue("text/javascript; charset=utf-8");
  }

  @Test
  void aLoginIsCheckedWhereItIsMade() {
    assertThatThrownBy(() -> new WebCatalog.Login(URI.create("file:///realms/team"), "c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("WebCatalog.Login: the issuer must be an http or https URL with a host, not"
            + " 'file:///realms/team'");
    assertThatThrownBy(() -> new WebCatalog.Login(URI.create("https://id.example.com"), " "))
        .hasMessage("WebCatalog.Login: the client id must be a non-blank text without control"
            + " characters, not ''");
    assertThat(new WebCatalog.Login(URI.create("http://127.0.0.1:8080/realms/x"), "c").origin())
        .isEqualTo("http://127.0.0.1:8080");
  }
}
