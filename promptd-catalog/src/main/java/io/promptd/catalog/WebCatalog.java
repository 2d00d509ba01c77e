package io.promptd.catalog;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.http.HttpTransportBuilder;

/**
 * The web catalog at {@code /} of an HTTP transport: a page that lists the prompts, fills their arguments with the
 * server's completions and renders them, as a 2026-07-28 client of the transport's MCP endpoint, and follows the
 * library's changes. Its files hold no library content (the page asks the endpoint for it, with the visitor's token),
 * so they are served without a token, after the transport's Host and Origin checks.
 *
 * <pre>{@code
 * HttpTransportBuilder http = HttpTransport.builder().server(server).path("/mcp").bearerToken(token);
 * WebCatalog.mountOn(http, "/mcp", true);
 * }</pre>
 */
public final class WebCatalog {
  private WebCatalog() {}

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
    requireNonNull(http, "WebCatalog.mountOn: http");
    requireNonNull(endpoint, "WebCatalog.mountOn: endpoint");
    CatalogPage page = new CatalogPage(endpoint, openToAll);
    for (String path : CatalogPage.PATHS) {
      http.mount(path, page);
    }
    return http;
  }
}
