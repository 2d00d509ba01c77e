package io.promptd.catalog;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.http.HttpMount;
import io.promptd.mcp.http.MountRequest;
import io.promptd.mcp.http.MountResponse;
import io.promptd.mcp.server.ServerText;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The web catalog's files: its pages (one per endpoint, such as {@code /} for {@code /mcp} and
 * {@code /labels/B/} for {@code /labels/B/mcp}) and their shared scripts, style sheet and icon,
 * shipped in this module's jar, that browse the library as an MCP client of the same server's
 * endpoint. Every response forbids framing, inline script, requests to other origins (but the
 * authorization server's, when the pages log people in) and type sniffing. A page is said in the
 * language its request's {@code Accept-Language} asks for, of those promptd speaks, else in the
 * server's ({@link CatalogText}): its HTML's words, and the JSON of texts its scripts write with.
 */
final class CatalogPage implements HttpMount {
  /** Where the files every page shares are served. */
  static final List<String> ASSETS = List.of(
      "/catalog/app.js",
      "/catalog/skills.js",
      "/catalog/lifecycle.js",
      "/catalog/promotions.js",
      "/catalog/login.js",
      "/catalog/app.css",
      "/catalog/icon.svg");

  /** Where the files of a catalog with its one page at {@code /} are served. */
  static final List<String> PATHS = List.of(
      "/",
      "/catalog/app.js",
      "/catalog/skills.js",
      "/catalog/lifecycle.js",
      "/catalog/promotions.js",
      "/catalog/login.js",
      "/catalog/app.css",
      "/catalog/icon.svg");

  /**
   * What the page may do: its own script and style, images from itself or {@code data:} URIs
   * (prompt images and icons arrive as those), requests to its own origin; no framing, no plugins,
   * no form posts, and DOM sinks that parse HTML refuse strings (Trusted Types with no policy:
   * {@code innerHTML = text} throws).
   */
  static final String CONTENT_SECURITY_POLICY = policy("'self'");

  /**
   * The page's policy when it logs people in: {@link #CONTENT_SECURITY_POLICY} with requests to the
   * authorization server's origin too (its metadata, its token endpoint); its login and logout
   * pages are navigations, which the policy does not govern.
   */
  static String contentSecurityPolicy(WebCatalog.@Nullable Login login) {
    return login == null ? CONTENT_SECURITY_POLICY : policy("'self' " + login.origin());
  }

  private static String policy(String connect) {
    return "default-src 'none'; script-src 'self'; style-src 'self';"
        + " img-src 'self' data:; connect-src " + connect
        + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none';"
        + " require-trusted-types-for 'script'; trusted-types 'none'";
  }

  /** A file of the page, with its media type. */
  private static final class Asset {
    private final String contentType;
    private final byte[] body;

    Asset(String contentType, byte[] body) {
      this.contentType = contentType;
      this.body = body;
    }

    String contentType() {
      return contentType;
    }

    byte[] body() {
      return body;
    }
  }

  /**
   * A page in one language: its HTML before and after the install section, which depends on the
   * request (its {@code Host}).
   */
  private record PageFile(WebCatalog.Page page, CatalogText text, String head, String tail) {}

  /** Where index.html's words stand: an element's text, and the attributes a person reads. */
  private static final List<String> WORDS =
      List.of(">%s<", " aria-label=\"%s\"", " placeholder=\"%s\"");

  /** Where a page's install section goes in index.html. */
  private static final String INSTALL = "{{install}}\n";

  private final Map<String, Asset> assets;
  /** Each page by its path, then by language. */
  private final Map<String, Map<Locale, PageFile>> pages;
  /** A page's path without its last slash, answered with a redirect to the page. */
  private final Map<String, String> redirects;

  private final boolean openToAll;
  private final WebCatalog.@Nullable Install install;
  private final Locale locale;
  private final String policy;

  /**
   * @param pages the pages: each at its path, calling its endpoint
   * @param management the management API's base path, which the pages call for versions, diffs,
   *     label moves and usage, or null when the server has none
   * @param openToAll whether visitors from other machines may load the page: when requests are
   *     authenticated (the page then asks for a token) or a public URL was configured; otherwise
   *     only loopback visitors may
   * @param install what each page's install links add, or null for no links
   * @param locale the server's language, for a request whose {@code Accept-Language} names none
   *     promptd speaks
   * @param login how the pages log people in, or null for a token to paste
   */
  CatalogPage(
      List<WebCatalog.Page> pages,
      @Nullable String management,
      boolean openToAll,
      WebCatalog.@Nullable Install install,
      Locale locale,
      WebCatalog.@Nullable Login login) {
    String template = new String(read("index.html"), StandardCharsets.UTF_8);
    Map<String, Asset> files = new HashMap<>();
    Map<String, Map<Locale, PageFile>> htmls = new HashMap<>();
    Map<String, String> moved = new HashMap<>();
    for (WebCatalog.Page page : pages) {
      String label = page.label();
      String html = template
          .replace("{{endpoint}}", attribute(page.endpoint()))
          .replace("{{label}}", label == null ? "" : attribute(label))
          .replace("{{manage}}", management == null ? "" : attribute(management))
          .replace("{{client}}", login == null ? "" : attribute(login.clientId()));
      Map<Locale, PageFile> languages = new HashMap<>();
      for (Locale l : ServerText.locales()) {
        languages.put(l, pageFile(page, CatalogText.of(l), html));
      }
      htmls.put(page.path(), Map.copyOf(languages));
      if (!page.path().equals("/")) {
        moved.put(page.path().substring(0, page.path().length() - 1), page.path());
      }
    }
    files.put("/catalog/app.js", new Asset("text/javascript; charset=utf-8", read("app.js")));
    files.put("/catalog/skills.js", new Asset("text/javascript; charset=utf-8", read("skills.js")));
    files.put(
        "/catalog/lifecycle.js", new Asset("text/javascript; charset=utf-8", read("lifecycle.js")));
    files.put(
        "/catalog/promotions.js",
        new Asset("text/javascript; charset=utf-8", read("promotions.js")));
    files.put("/catalog/login.js", new Asset("text/javascript; charset=utf-8", read("login.js")));
    files.put("/catalog/app.css", new Asset("text/css; charset=utf-8", read("app.css")));
    files.put("/catalog/icon.svg", new Asset("image/svg+xml", read("icon.svg")));
    this.assets = Map.copyOf(files);
    this.pages = Map.copyOf(htmls);
    this.redirects = Map.copyOf(moved);
    this.openToAll = openToAll;
    this.install = install;
    this.locale = CatalogText.of(locale).locale();
    this.policy = contentSecurityPolicy(login);
  }

  /**
   * {@code html} in one language, cut where the install section goes. index.html is written in
   * English, and each of its words is found by its English text, as gettext finds a message: an
   * element's text or a read attribute that is exactly a text's English is said in the language's.
   */
  private static PageFile pageFile(WebCatalog.Page page, CatalogText text, String html) {
    String said = html;
    for (Map.Entry<String, String> e : CatalogText.english().entrySet()) {
      String english = attribute(e.getValue());
      String own = attribute(text.get(e.getKey()));
      if (!english.equals(own) && !english.contains("{")) {
        for (String where : WORDS) {
          said = said.replace(where.formatted(english), where.formatted(own));
        }
      }
    }
    said = said.replace("{{lang}}", text.tag()).replace("{{texts}}", attribute(text.json()));
    int at = said.indexOf(INSTALL);
    if (at < 0) {
      throw new IllegalStateException("the catalog's index.html has no " + INSTALL.strip());
    }
    return new PageFile(page, text, said.substring(0, at), said.substring(at + INSTALL.length()));
  }

  /** Every path this serves: the pages, their redirects and the shared files. */
  List<String> paths() {
    List<String> paths = new ArrayList<>(assets.keySet());
    paths.addAll(pages.keySet());
    paths.addAll(redirects.keySet());
    return paths;
  }

  /** Answers a request for one of the page's files; the transport has checked Host and Origin. */
  @Override
  public void serve(MountRequest request, MountResponse response) {
    securityHeaders(response);
    if (!openToAll && !request.fromThisMachine()) {
      response.refuse(
          403,
          "Forbidden: without authentication the catalog is served only to this machine; require a"
              + " token or OAuth, or configure a public URL");
      return;
    }
    if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
      response.header("Allow", "GET, HEAD");
      response.refuse(405, "Method Not Allowed: use GET");
      return;
    }
    String page = redirects.get(request.path());
    if (page != null) {
      response.header("Location", page);
      response.send(
          308,
          "text/plain; charset=utf-8",
          ("See " + page + "\n").getBytes(StandardCharsets.UTF_8));
      return;
    }
    Asset asset = assets.get(request.path());
    Map<Locale, PageFile> languages = pages.get(request.path());
    if (languages != null) {
      PageFile html = requireNonNull(languages.get(language(request)), "every language's page");
      response.header("Content-Language", html.text().tag()).header("Vary", "Accept-Language");
      asset = new Asset("text/html; charset=utf-8", page(html, request));
    }
    if (asset == null) {
      response.refuse(404, "Not Found");
      return;
    }
    if (request.method().equals("HEAD")) {
      response.header("Content-Length", String.valueOf(asset.body().length));
      response.send(200, asset.contentType(), new byte[0]);
    } else {
      response.send(200, asset.contentType(), asset.body());
    }
  }

  /** The language a request's {@code Accept-Language} headers ask for, else the server's. */
  private Locale language(MountRequest request) {
    List<String> accepted = request.headers("Accept-Language");
    return CatalogText.choose(accepted.isEmpty() ? null : String.join(",", accepted), locale);
  }

  /** A page as this request gets it: with the install section for the address it was asked at. */
  private byte[] page(PageFile html, MountRequest request) {
    WebCatalog.Install links = install;
    String section = links == null
        ? ""
        : InstallSection.html(html.page(), links, request.header("Host"), html.text());
    return (html.head() + section + html.tail()).getBytes(StandardCharsets.UTF_8);
  }

  private void securityHeaders(MountResponse response) {
    response
        .header("Content-Security-Policy", policy)
        .header("X-Content-Type-Options", "nosniff")
        .header("X-Frame-Options", "DENY")
        .header("Referrer-Policy", "no-referrer")
        .header("Cross-Origin-Opener-Policy", "same-origin")
        .header("Cross-Origin-Resource-Policy", "same-origin")
        .header("Permissions-Policy", "camera=(), microphone=(), geolocation=(), clipboard-read=()")
        .header("Cache-Control", "no-cache");
  }

  /** A value fit for a double-quoted HTML attribute. */
  private static String attribute(String value) {
    return value
        .replace("&", "&amp;")
        .replace("\"", "&quot;")
        .replace("<", "&lt;")
        .replace(">", "&gt;");
  }

  private static byte[] read(String name) {
    try (InputStream in = CatalogPage.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the catalog's " + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
