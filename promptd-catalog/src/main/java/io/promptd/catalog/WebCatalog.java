package io.promptd.catalog;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.http.HttpTransportBuilder;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The web catalog at {@code /} of an HTTP transport: a page that lists the prompts, fills their arguments with the
 * server's completions and renders them, as a 2026-07-28 client of the transport's MCP endpoint, and follows the
 * library's changes; with a management API, also each prompt's versions, a diff between two, a "promote to…" label
 * move and its usage. Further pages (one per further endpoint, such as a label's) share its files. Its files hold no
 * library content (the page asks the endpoint for it, with the visitor's token), so they are served without a token,
 * after the transport's Host and Origin checks.
 *
 * <pre>{@code
 * HttpTransportBuilder http = HttpTransport.builder().server(server).path("/mcp").bearerToken(token);
 * WebCatalog.mountOn(http, "/mcp", true);
 * }</pre>
 */
public final class WebCatalog {
  private WebCatalog() {}

  /**
   * One page of the catalog.
   *
   * @param path where the page is served: {@code /}, or a path ending with {@code /} such as {@code /labels/staging/}
   *     (its path without the last slash redirects to it)
   * @param endpoint the MCP endpoint's path, which the page calls, such as {@code /mcp}
   * @param label the label the endpoint serves, which the page shows, or null
   */
  public record Page(String path, String endpoint, @Nullable String label) {
    /**
     * Checks the paths.
     *
     * @throws IllegalArgumentException when a path is not absolute or the page's does not end with {@code /}
     */
    public Page {
      requireNonNull(path, "WebCatalog.Page: path");
      requireNonNull(endpoint, "WebCatalog.Page: endpoint");
      if (!path.startsWith("/") || !path.endsWith("/") || path.contains("//")) {
        throw new IllegalArgumentException(
            "WebCatalog.Page: the path must start and end with '/', not '" + path + "'");
      }
      if (!endpoint.startsWith("/")) {
        throw new IllegalArgumentException(
            "WebCatalog.Page: the endpoint must be an absolute path, not '" + endpoint + "'");
      }
    }
  }

  /**
   * Mounts the page at {@code /} and its script, style sheet and icon under {@code /catalog/}; the MCP path must then
   * be other than these ({@link HttpTransportBuilder#build()} refuses it otherwise).
   *
   * @param http the transport to serve it
   * @param endpoint the MCP endpoint's path, which the page calls, such as {@code /mcp}
   * @param openToAll whether visitors from other machines may load the page: right when requests are authenticated
   *     (the page then asks for a token) or a public URL is configured; otherwise only visitors on this machine may
   * @return {@code http}
   */
  public static HttpTransportBuilder mountOn(
      HttpTransportBuilder http, String endpoint, boolean openToAll) {
    requireNonNull(endpoint, "WebCatalog.mountOn: endpoint");
    return mountOn(http, List.of(new Page("/", endpoint, null)), null, openToAll);
  }

  /**
   * Mounts each page at its path and their shared script, style sheet and icon under {@code /catalog/}.
   *
   * @param http the transport to serve them
   * @param pages the pages, each path once
   * @param management the base path of the server's management API (such as {@code /manage/v1}), which the pages
   *     then call with the visitor's token for each prompt's versions, diffs, label moves and usage; null when the
   *     server has none
   * @param openToAll as for {@link #mountOn(HttpTransportBuilder, String, boolean)}
   * @return {@code http}
   * @throws IllegalArgumentException when there is no page, a path is given twice or the management path is not
   *     absolute
   */
  public static HttpTransportBuilder mountOn(
      HttpTransportBuilder http, List<Page> pages, @Nullable String management, boolean openToAll) {
    requireNonNull(http, "WebCatalog.mountOn: http");
    requireNonNull(pages, "WebCatalog.mountOn: pages");
    if (pages.isEmpty()) {
      throw new IllegalArgumentException("WebCatalog.mountOn: no page to mount");
    }
    Set<String> seen = new HashSet<>();
    for (Page p : pages) {
      if (!seen.add(p.path())) {
        throw new IllegalArgumentException(
            "WebCatalog.mountOn: the page path " + p.path() + " is given twice");
      }
    }
    if (management != null && !management.startsWith("/")) {
      throw new IllegalArgumentException(
          "WebCatalog.mountOn: the management path must be absolute, not '" + management + "'");
    }
    CatalogPage page = new CatalogPage(List.copyOf(pages), management, openToAll);
    for (String path : page.paths()) {
      http.mount(path, page);
    }
    return http;
  }
}
