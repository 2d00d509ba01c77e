package io.promptd.mcp.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The web catalog: one page and its script, style sheet and icon, shipped in this module's jar, that browse the
 * library as an MCP client of the same server's endpoint. The files hold no library content (the page asks the MCP
 * endpoint for it, with the visitor's token), so they are served without a token; every response forbids framing,
 * inline script, requests to other origins and type sniffing.
 */
final class CatalogPage {
  /**
   * What the page may do: its own script and style, images from itself or {@code data:} URIs (prompt images and
   * icons arrive as those), requests to its own origin; no framing, no plugins, no form posts, and DOM sinks that
   * parse HTML refuse strings (Trusted Types with no policy: {@code innerHTML = text} throws).
   */
  static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
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

  private final Map<String, Asset> assets;
  private final boolean openToAll;

  /**
   * @param endpoint the MCP endpoint's path, which the page calls
   * @param openToAll whether visitors from other machines may load the page: when requests are authenticated (the
   *     page then asks for a token) or a public URL was configured; otherwise only loopback visitors may
   */
  CatalogPage(String endpoint, boolean openToAll) {
    String html = new String(read("index.html"), StandardCharsets.UTF_8)
        .replace("{{endpoint}}", attribute(endpoint));
    this.assets = Map.of(
        "/", new Asset("text/html; charset=utf-8", html.getBytes(StandardCharsets.UTF_8)),
        "/catalog/app.js", new Asset("text/javascript; charset=utf-8", read("app.js")),
        "/catalog/app.css", new Asset("text/css; charset=utf-8", read("app.css")),
        "/catalog/icon.svg", new Asset("image/svg+xml", read("icon.svg")));
    this.openToAll = openToAll;
  }

  /** Whether {@code path} is one of the page's files. */
  boolean serves(String path) {
    return assets.containsKey(path);
  }

  /**
   * Answers a request for one of the page's files; Host and Origin have been checked.
   *
   * @param loopbackHost whether the request named this machine by a loopback name or address in {@code Host}
   */
  void serve(Exchange ex, boolean loopbackHost) {
    securityHeaders(ex);
    if (!openToAll && !(loopbackHost && loopbackPeer(ex.remoteAddress()))) {
      ex.refuse(403, "Forbidden: without authentication the catalog is served only to this machine; require a"
          + " token or OAuth, or configure a public URL");
      return;
    }
    if (!ex.method().equals("GET") && !ex.method().equals("HEAD")) {
      ex.setHeader("Allow", "GET, HEAD");
      ex.refuse(405, "Method Not Allowed: use GET");
      return;
    }
    Asset asset = assets.get(ex.path());
    if (asset == null) {
      ex.refuse(404, "Not Found");
      return;
    }
    if (ex.method().equals("HEAD")) {
      ex.setHeader("Content-Length", String.valueOf(asset.body().length));
      ex.asset(200, asset.contentType(), new byte[0]);
    } else {
      ex.asset(200, asset.contentType(), asset.body());
    }
  }

  private static void securityHeaders(Exchange ex) {
    ex.setHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    ex.setHeader("X-Content-Type-Options", "nosniff");
    ex.setHeader("X-Frame-Options", "DENY");
    ex.setHeader("Referrer-Policy", "no-referrer");
    ex.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    ex.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    ex.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), clipboard-read=()");
    ex.setHeader("Cache-Control", "no-cache");
  }

  private static boolean loopbackPeer(@Nullable String address) {
    return address != null && (Guard.LOOPBACK_V4.matcher(address).matches() || address.equals("::1")
        || address.equals("[::1]") || address.equals("0:0:0:0:0:0:0:1") || address.equals("[0:0:0:0:0:0:0:1]"));
  }

  /** A value fit for a double-quoted HTML attribute. */
  private static String attribute(String value) {
    return value.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static byte[] read(String name) {
    try (InputStream in = CatalogPage.class.getResourceAsStream("catalog/" + name)) {
      if (in == null) {
        throw new IllegalStateException("the catalog's " + name + " is missing from the jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
