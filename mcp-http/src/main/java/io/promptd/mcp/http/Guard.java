package io.promptd.mcp.http;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The checks every request passes before any MCP processing: Host and Origin against DNS rebinding, then the bearer
 * token. Loopback names with the bound port are always allowed; anything else must be configured.
 */
final class Guard {
  private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");

  private final Set<String> hosts = new HashSet<>();
  private final Set<String> origins = new HashSet<>();
  private final byte @Nullable [] token;

  /**
   * @param port the bound port
   * @param bindHost the configured bind address, allowed as a Host when it is a concrete address
   * @param extraHosts further {@code host[:port]} values to accept in {@code Host}
   * @param extraOrigins further origins ({@code scheme://host[:port]}) to accept in {@code Origin}
   * @param token the bearer token to require, or null
   */
  Guard(int port, String bindHost, List<String> extraHosts, List<String> extraOrigins, @Nullable String token) {
    for (String name : LOOPBACK) {
      hosts.add(name + ":" + port);
      origins.add("http://" + name + ":" + port);
      origins.add("https://" + name + ":" + port);
    }
    if (!bindHost.equals("0.0.0.0") && !bindHost.equals("::") && !bindHost.isEmpty()) {
      String h = bindHost.contains(":") && !bindHost.startsWith("[") ? "[" + bindHost + "]" : bindHost;
      hosts.add(h.toLowerCase(Locale.ROOT) + ":" + port);
    }
    for (String h : extraHosts) {
      hosts.add(normalizeHost(h, port));
    }
    for (String o : extraOrigins) {
      String n = normalizeOrigin(o);
      if (n != null) {
        origins.add(n);
      }
    }
    this.token = token == null ? null : token.getBytes(StandardCharsets.UTF_8);
  }

  /** Why the request must be refused with 403, or null when Host and Origin are acceptable. */
  @Nullable String forbidden(@Nullable String host, @Nullable String origin) {
    if (host == null || !hosts.contains(normalizeHost(host, 80))) {
      return "Forbidden: Host header not allowed";
    }
    if (origin != null) {
      String n = normalizeOrigin(origin);
      if (n == null || !origins.contains(n)) {
        return "Forbidden: Origin not allowed";
      }
    }
    return null;
  }

  /** Whether the request carries the configured bearer token (always true when none is configured). */
  boolean authorized(@Nullable String authorization) {
    byte[] expected = token;
    if (expected == null) {
      return true;
    }
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return false;
    }
    byte[] given = authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    return MessageDigest.isEqual(given, expected); // constant time: no token guessing by timing
  }

  /** {@code host:port} in lower case; {@code defaultPort} when the value names none. */
  private static String normalizeHost(String hostHeader, int defaultPort) {
    String h = hostHeader.trim().toLowerCase(Locale.ROOT);
    int close = h.lastIndexOf(']');
    int colon = h.lastIndexOf(':');
    boolean hasPort = colon > close && (h.startsWith("[") || h.indexOf(':') == colon);
    return hasPort ? h : h + ":" + defaultPort;
  }

  /** {@code scheme://host:port} with the default port made explicit, or null when not an origin. */
  private static @Nullable String normalizeOrigin(String origin) {
    try {
      URI u = new URI(origin.trim());
      String scheme = u.getScheme();
      String host = u.getHost();
      if (scheme == null || host == null) {
        return null;
      }
      scheme = scheme.toLowerCase(Locale.ROOT);
      int port = u.getPort() >= 0 ? u.getPort() : scheme.equals("https") ? 443 : 80;
      return scheme + "://" + host.toLowerCase(Locale.ROOT) + ":" + port;
    } catch (URISyntaxException e) {
      return null;
    }
  }

  /** Whether an {@code Accept} header admits {@code type} (such as {@code text/event-stream}); absent admits all. */
  static boolean accepts(List<String> acceptHeaders, String type) {
    if (acceptHeaders.isEmpty()) {
      return true;
    }
    String major = type.substring(0, type.indexOf('/'));
    for (String header : acceptHeaders) {
      int start = 0;
      while (start <= header.length()) {
        int comma = header.indexOf(',', start);
        int end = comma < 0 ? header.length() : comma;
        String range = mediaType(header.substring(start, end));
        if (range.equals(type) || range.equals("*/*") || range.equals(major + "/*")) {
          return true;
        }
        start = end + 1;
      }
    }
    return false;
  }

  /** The media type of a header value without its parameters, in lower case. */
  private static String mediaType(String value) {
    int semi = value.indexOf(';');
    return (semi < 0 ? value : value.substring(0, semi)).trim().toLowerCase(Locale.ROOT);
  }

  /** Whether a {@code Content-Type} header names JSON. */
  static boolean isJson(@Nullable String contentType) {
    return contentType != null && mediaType(contentType).equals("application/json");
  }
}
