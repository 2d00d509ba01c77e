package io.promptd.catalog;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.http.HttpTransportBuilder;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The web catalog at {@code /} of an HTTP transport: a page that lists the prompts, fills their
 * arguments with the server's completions and renders them, as a 2026-07-28 client of the
 * transport's MCP endpoint, and follows the library's changes; with a management API, also each
 * prompt's versions, a diff between two, a "promote to…" label move and its usage. Further pages
 * (one per further endpoint, such as a label's) share its files. Its files hold no library content
 * (the page asks the endpoint for it, with the visitor's token), so they are served without a
 * token, after the transport's Host and Origin checks. Given an {@link Install}, each page also
 * offers "Add to VS Code", "Add to Cursor" and the Claude Code command for its endpoint (links that
 * never hold a token). Given a {@link Login}, each page logs people in at the authorization server
 * itself instead of asking for a token to paste. A page's own words are in English, Simplified
 * Chinese or Japanese, as the visitor's {@code Accept-Language} asks, else in the server's
 * language; the library's content is shown as it is.
 *
 * <pre>{@code
 * HttpTransportBuilder http = HttpTransport.builder().server(server).path("/mcp").bearerToken(token);
 * WebCatalog.mountOn(http, "/mcp", true);
 * }</pre>
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class WebCatalog {
  private WebCatalog() {}

  /**
   * One page of the catalog.
   *
   * @param path where the page is served: {@code /}, or a path ending with {@code /} such as
   *     {@code /labels/staging/} (its path without the last slash redirects to it)
   * @param endpoint the MCP endpoint's path, which the page calls, such as {@code /mcp}
   * @param label the label the endpoint serves, which the page shows, or null
   */
  public record Page(String path, String endpoint, @Nullable String label) {
    /**
     * Checks the paths.
     *
     * @throws IllegalArgumentException when a path is not absolute or the page's does not end with
     *     {@code /}
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
   * What the pages' install links add: each page's endpoint at the server's public URL, or else at
   * the address the visitor used, with the token (if the server takes one) read from the client's
   * side.
   *
   * @param publicUrl the URL clients reach the server by (such as
   *     {@code https://prompts.example.com/mcp}), whose scheme and authority the links use with
   *     each page's endpoint; null: the scheme {@code tls} says and the {@code Host} the visitor
   *     sent, which the transport has checked
   * @param tls whether the server itself speaks TLS (the links' scheme when there is no public URL)
   * @param tokenVariable the environment variable the links' bearer-token header reads, when the
   *     server takes a bearer token; null when it takes none, or OAuth (which the clients do
   *     themselves)
   */
  public record Install(
      @Nullable URI publicUrl, boolean tls, @Nullable String tokenVariable) {
    /**
     * Checks the URL and the variable.
     *
     * @throws IllegalArgumentException when the public URL is not an http or https URL with a host,
     *     or the variable is not an environment variable's name
     */
    public Install {
      if (publicUrl != null
          && (!("http".equalsIgnoreCase(publicUrl.getScheme())
                  || "https".equalsIgnoreCase(publicUrl.getScheme()))
              || publicUrl.getHost() == null)) {
        throw new IllegalArgumentException(
            "WebCatalog.Install: the public URL must be an http or https URL with a host, not '"
                + publicUrl + "'");
      }
      if (tokenVariable != null && !tokenVariable.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new IllegalArgumentException("WebCatalog.Install: the token variable must be an"
            + " environment variable's name, not '" + tokenVariable + "'");
      }
    }
  }

  /**
   * How the pages log people in when the endpoint takes OAuth access tokens: with the authorization
   * code flow and PKCE, as the public client {@code clientId} in the browser. A page finds the
   * authorization server from the endpoint's protected-resource metadata, sends the person there
   * with its own URL as the redirect URI, and keeps the tokens in the tab's session storage,
   * refreshing them before they expire; "Log out" forgets them (and ends the provider's session
   * where it offers that). The pages may then call the issuer's origin, and no other, besides their
   * own.
   *
   * @param issuer the authorization server's issuer identifier, an http or https URL, whose origin
   *     must also serve its metadata and token endpoint
   * @param clientId the public client registered at the authorization server for the catalog
   */
  public record Login(URI issuer, String clientId) {
    /**
     * Checks the issuer and the client id.
     *
     * @throws IllegalArgumentException when the issuer is not an http or https URL with a host, or
     *     the client id is blank or holds a control character
     */
    public Login {
      requireNonNull(issuer, "WebCatalog.Login: issuer");
      requireNonNull(clientId, "WebCatalog.Login: clientId");
      if (!("http".equalsIgnoreCase(issuer.getScheme())
              || "https".equalsIgnoreCase(issuer.getScheme()))
          || issuer.getHost() == null) {
        throw new IllegalArgumentException(
            "WebCatalog.Login: the issuer must be an http or https URL with a host, not '" + issuer
                + "'");
      }
      if (clientId.isBlank() || clientId.chars().anyMatch(Character::isISOControl)) {
        throw new IllegalArgumentException("WebCatalog.Login: the client id must be a"
            + " non-blank text without control characters, not '" + clientId.strip() + "'");
      }
    }

    /** The issuer's origin, as a Content-Security-Policy source: scheme, host and any port. */
    String origin() {
      String host = issuer.getHost();
      int port = issuer.getPort();
      return issuer.getScheme().toLowerCase(Locale.ROOT) + "://" + host.toLowerCase(Locale.ROOT)
          + (port < 0 ? "" : ":" + port);
    }
  }

  /**
   * Mounts the page at {@code /} and its script, style sheet and icon under {@code /catalog/}; the
   * MCP path must then be other than these ({@link HttpTransportBuilder#build()} refuses it
   * otherwise).
   *
   * @param http the transport to serve it
   * @param endpoint the MCP endpoint's path, which the page calls, such as {@code /mcp}
   * @param openToAll whether visitors from other machines may load the page: right when requests
   *     are authenticated (the page then asks for a token) or a public URL is configured; otherwise
   *     only visitors on this machine may
   * @return {@code http}
   */
  public static HttpTransportBuilder mountOn(
      HttpTransportBuilder http, String endpoint, boolean openToAll) {
    requireNonNull(endpoint, "WebCatalog.mountOn: endpoint");
    return mountOn(http, List.of(new Page("/", endpoint, null)), null, openToAll);
  }

  /**
   * Mounts each page at its path and their shared script, style sheet and icon under
   * {@code /catalog/}.
   *
   * @param http the transport to serve them
   * @param pages the pages, each path once
   * @param management the base path of the server's management API (such as {@code /manage/v1}),
   *     which the pages then call with the visitor's token for each prompt's versions, diffs, label
   *     moves and usage; null when the server has none
   * @param openToAll as for {@link #mountOn(HttpTransportBuilder, String, boolean)}
   * @return {@code http}
   * @throws IllegalArgumentException when there is no page, a path is given twice or the management
   *     path is not absolute
   */
  public static HttpTransportBuilder mountOn(
      HttpTransportBuilder http, List<Page> pages, @Nullable String management, boolean openToAll) {
    return mountOn(http, pages, management, openToAll, null);
  }

  /**
   * Mounts each page at its path, as {@link #mountOn(HttpTransportBuilder, List, String, boolean)}
   * does, each with the install links of its endpoint.
   *
   * @param http the transport to serve them
   * @param pages the pages, each path once
   * @param management as for {@link #mountOn(HttpTransportBuilder, List, String, boolean)}
   * @param openToAll as for {@link #mountOn(HttpTransportBuilder, String, boolean)}
   * @param install what the install links add; null for none
   * @return {@code http}
   * @throws IllegalArgumentException as {@link #mountOn(HttpTransportBuilder, List, String,
   *     boolean)} does
   */
  public static HttpTransportBuilder mountOn(
      HttpTransportBuilder http,
      List<Page> pages,
      @Nullable String management,
      boolean openToAll,
      @Nullable Install install) {
    return mountOn(http, pages, management, openToAll, install, Locale.ENGLISH);
  }

  /**
   * Mounts each page as {@link #mountOn(HttpTransportBuilder, List, String, boolean, Install,
   * Locale)} does, each logging people in with {@code login} when it is given.
   *
   * @param http the transport to serve them
   * @param pages the pages, each path once
   * @param management as for {@link #mountOn(HttpTransportBuilder, List, String, boolean)}
   * @param openToAll as for {@link #mountOn(HttpTransportBuilder, String, boolean)}
   * @param install what the install links add; null for none
   * @param locale the server's language (one promptd does not speak is English)
   * @param login how the pages log people in; null: they ask for a token to paste when the endpoint
   *     wants one
   * @return {@code http}
   * @throws IllegalArgumentException as {@link #mountOn(HttpTransportBuilder, List, String,
   *     boolean)} does
   */
  public static HttpTransportBuilder mountOn(
      HttpTransportBuilder http,
      List<Page> pages,
      @Nullable String management,
      boolean openToAll,
      @Nullable Install install,
      Locale locale,
      @Nullable Login login) {
    requireNonNull(http, "WebCatalog.mountOn: http");
    requireNonNull(locale, "WebCatalog.mountOn: locale");
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
    CatalogPage page =
        new CatalogPage(List.copyOf(pages), management, openToAll, install, locale, login);
    for (String path : page.paths()) {
      http.mount(path, page);
    }
    return http;
  }

  /**
   * Mounts each page as {@link #mountOn(HttpTransportBuilder, List, String, boolean, Install)}
   * does, said in {@code locale} to a visitor whose {@code Accept-Language} names no language
   * promptd speaks ({@code en}, {@code zh-CN}, {@code ja}).
   *
   * @param http the transport to serve them
   * @param pages the pages, each path once
   * @param management as for {@link #mountOn(HttpTransportBuilder, List, String, boolean)}
   * @param openToAll as for {@link #mountOn(HttpTransportBuilder, String, boolean)}
   * @param install what the install links add; null for none
   * @param locale the server's language (one promptd does not speak is English)
   * @return {@code http}
   * @throws IllegalArgumentException as {@link #mountOn(HttpTransportBuilder, List, String,
   *     boolean)} does
   */
  public static HttpTransportBuilder mountOn(
      HttpTransportBuilder http,
      List<Page> pages,
      @Nullable String management,
      boolean openToAll,
      @Nullable Install install,
      Locale locale) {
    return mountOn(http, pages, management, openToAll, install, locale, null);
  }
}
