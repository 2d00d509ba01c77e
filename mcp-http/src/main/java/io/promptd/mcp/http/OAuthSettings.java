package io.promptd.mcp.http;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.net.URI;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Makes an {@link HttpTransport} an OAuth 2.1 resource server, as the MCP authorization
 * specification asks: every request must carry a JWT access token from {@code issuer}, whose
 * audience names this resource and which grants every scope in {@code scopes}. The issuer's keys
 * are found through its RFC 8414 or OpenID Connect discovery document.
 *
 * <pre>{@code
 * HttpTransport.builder().server(server)
 *     .oauth(OAuthSettings.issuer(URI.create("https://login.example.com/realms/team"))
 *         .withScopes(List.of("prompts")))
 *     .build();
 * }</pre>
 *
 * @param issuer the authorization server's issuer identifier, an absolute {@code https} (or
 *     {@code http}) URL
 * @param audience the audience tokens must name, or null for the resource (RFC 8707)
 * @param scopes the scopes a token must grant to connect at all (empty: any valid token)
 * @param resource this server's resource identifier, as clients reach it, or null for the
 *     transport's own URI
 */
@Stability(Stability.Tier.STABLE)
public record OAuthSettings(
    URI issuer,
    @Nullable URI audience,
    Set<String> scopes,
    @Nullable URI resource) {
  /** Checks the fields and copies the scopes. */
  public OAuthSettings {
    requireNonNull(issuer, "issuer");
    checkUrl(issuer, "issuer");
    if (issuer.getRawQuery() != null || issuer.getRawFragment() != null) {
      throw new IllegalArgumentException(
          "OAuthSettings.issuer: must have no query or fragment, not '" + issuer + "'");
    }
    if (audience != null && audience.toString().isBlank()) {
      throw new IllegalArgumentException("OAuthSettings.audience: must not be blank");
    }
    if (resource != null) {
      checkUrl(resource, "resource");
      if (resource.getRawFragment() != null) {
        throw new IllegalArgumentException(
            "OAuthSettings.resource: must have no fragment, not '" + resource + "'");
      }
    }
    requireNonNull(scopes, "scopes");
    Set<String> copy = new LinkedHashSet<>();
    for (String s : scopes) {
      requireNonNull(s, "scopes element");
      if (s.isBlank() || s.chars().anyMatch(c -> c <= ' ' || c == '"' || c == '\\' || c > '~')) {
        throw new IllegalArgumentException(
            "OAuthSettings.scopes: not a valid scope token: '" + s + "'");
      }
      copy.add(s);
    }
    scopes = Set.copyOf(copy);
  }

  /**
   * Settings for tokens from {@code issuer}, with the default audience (the resource) and no
   * required scope.
   */
  public static OAuthSettings issuer(URI issuer) {
    return new OAuthSettings(issuer, null, Set.of(), null);
  }

  /** A copy whose tokens must name {@code audience} in {@code aud}. */
  public OAuthSettings withAudience(@Nullable URI audience) {
    return new OAuthSettings(issuer, audience, scopes, resource);
  }

  /** A copy that requires every scope in {@code scopes} to connect. */
  public OAuthSettings withScopes(Collection<String> scopes) {
    return new OAuthSettings(
        issuer, audience, Set.copyOf(requireNonNull(scopes, "scopes")), resource);
  }

  /**
   * A copy with another resource identifier (the URL clients use, such as the public one behind a
   * proxy).
   */
  public OAuthSettings withResource(@Nullable URI resource) {
    return new OAuthSettings(issuer, audience, scopes, resource);
  }

  private static void checkUrl(URI uri, String what) {
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!uri.isAbsolute()
        || !(scheme.equals("https") || scheme.equals("http"))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "OAuthSettings." + what + ": must be an absolute http(s) URL, not '" + uri + "'");
    }
  }
}
