package io.promptd.catalog;

import io.promptd.mcp.http.HttpMount;
import io.promptd.mcp.http.MountRequest;
import io.promptd.mcp.http.MountResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The web catalog's files: its pages (one per endpoint, such as {@code /} for {@code /mcp} and
 * {@code /labels/B/} for {@code /labels/B/mcp}) and their shared scripts, style sheet and icon,
 * shipped in this module's jar, that browse the library as an MCP client of the same server's
 * endpoint. Every response forbids framing, inline script, requests to other origins and type
 * sniffing.
 */
final class CatalogPage implements HttpMount {
  /** Where the files every page shares are served. */
  static final List<String> ASSETS = List.of(
      "/catalog/app.js",
      "/catalog/skills.js",
      "/catalog/lifecycle.js",
      "/catalog/app.css",
      "/catalog/icon.svg");

  /** Where the files of a catalog with its one page at {@code /} are served. */
  static final List<String> PATHS = List.of(
      "/",
      "/catalog/app.js",
      "/catalog/skills.js",
      "/catalog/lifecycle.js",
      "/catalog/app.css",
      "/catalog/icon.svg");

  /**
   * What the page may do: its own script and style, images from itself or {@code data:} URIs
   * (prompt images and icons arrive as those), requests to its own origin; no framing, no plugins,
   * no form posts, and DOM sinks that parse HTML refuse strings (Trusted Types with no policy:
   * {@code innerHTML = text} throws).
   */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self';"
          + " img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none';"
          + " require-trusted-types-for 'script'; trusted-types 'none'";

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
   * A page: its HTML before and after the install section, which depends on the request (its
   * {@code Host}).
   */
  private record PageFile(WebCatalog.Page page, String head, String tail) {}

  /** Where a page's install section goes in index.html. */
  private static final String INSTALL = "{{install}}\n";

  private final Map<String, Asset> assets;
  private final Map<String, PageFile> pages;
  /** A page's path without its last slash, answered with a redirect to the page. */
  private final Map<String, String> redirects;

  private final boolean openToAll;
  private final WebCatalog.@Nullable Install install;

  /**
   * @param pages the pages: each at its path, calling its endpoint
   * @param management the management API's base path, which the pages call for versions, diffs,
   *     label moves and usage, or null when the server has none
   * @param openToAll whether visitors from other machines may load the page: when requests are
   *     authenticated (the page then asks for a token) or a public URL was configured; otherwise
   *     only loopback visitors may
   * @param install what each page's install links add, or null for no links
   */
  CatalogPage(
      List<WebCatalog.Page> pages,
      @Nullable String management,
      boolean openToAll,
      WebCatalog.@Nullable Install install) {
    String template = new String(read("index.html"), StandardCharsets.UTF_8);
    Map<String, Asset> files = new HashMap<>();
    Map<String, PageFile> htmls = new HashMap<>();
    Map<String, String> moved = new HashMap<>();
    for (WebCatalog.Page page : pages) {
      String label = page.label();
      String html = template
          .replace("{{endpoint}}", attribute(page.endpoint()))
          .replace("{{label}}", label == null ? "" : attribute(label))
          .replace("{{manage}}", management == null ? "" : attribute(management));
      int at = html.indexOf(INSTALL);
      if (at < 0) {
        throw new IllegalStateException("the catalog's index.html has no " + INSTALL.strip());
      }
      htmls.put(
          page.path(),
          new PageFile(page, html.substring(0, at), html.substring(at + INSTALL.length())));
      if (!page.path().equals("/")) {
        moved.put(page.path().substring(0, page.path().length() - 1), page.path());
      }
    }
    files.put("/catalog/app.js", new Asset("text/javascript; charset=utf-8", read("app.js")));
    files.put("/catalog/skills.js", new Asset("text/javascript; charset=utf-8", read("skills.js")));
    files.put(
        "/catalog/lifecycle.js", new Asset("text/javascript; charset=utf-8", read("lifecycle.js")));
    files.put("/catalog/app.css", new Asset("text/css; charset=utf-8", read("app.css")));
    files.put("/catalog/icon.svg", new Asset("image/svg+xml", read("icon.svg")));
    this.assets = Map.copyOf(files);
    this.pages = Map.copyOf(htmls);
    this.redirects = Map.copyOf(moved);
    this.openToAll = openToAll;
    this.install = install;
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
    PageFile html = pages.get(request.path());
    if (html != null) {
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

  /** A page as this request gets it: with the install section for the address it was asked at. */
  private byte[] page(PageFile html, MountRequest request) {
    WebCatalog.Install links = install;
    String section =
        links == null ? "" : InstallSection.html(html.page(), links, request.header("Host"));
    return (html.head() + section + html.tail()).getBytes(StandardCharsets.UTF_8);
  }

  private static void securityHeaders(MountResponse response) {
    response
        .header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
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
