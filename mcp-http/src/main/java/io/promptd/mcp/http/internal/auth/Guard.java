package io.promptd.mcp.http.internal.auth;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The check every request to the MCP port passes first: Host and Origin against DNS rebinding
 * (credentials are the {@link Authenticator}'s). Loopback names with the bound port are always
 * allowed; anything else must be configured.
 */
public final class Guard {
  private static final List<String> LOOPBACK = List.of("localhost", "127.0.0.1", "[::1]");
  /** An IPv4 loopback address, 127.0.0.0/8. */
  static final Pattern LOOPBACK_V4 = Pattern.compile("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");

  private final Set<String> hosts = new HashSet<>();
  private final Set<String> origins = new HashSet<>();

  /**
   * @param port the bound port
   * @param bindHost the configured bind address, allowed as a Host when it is a concrete address
   * @param publicUrls the URLs clients use to reach the endpoint (through a name, a proxy, a load
   *     balancer): each one's {@code host[:port]} is accepted in {@code Host} and its origin in
   *     {@code Origin}
   * @param extraHosts further {@code host[:port]} values to accept in {@code Host}
   * @param extraOrigins further origins ({@code scheme://host[:port]}) to accept in {@code Origin}
   */
  public Guard(
      int port,
      String bindHost,
      List<URI> publicUrls,
      List<String> extraHosts,
      List<String> extraOrigins) {
    for (String name : LOOPBACK) {
      hosts.add(normalizeHost(name + ":" + port));
      origins.add("http://" + name + ":" + port);
      origins.add("https://" + name + ":" + port);
    }
    if (!wildcard(bindHost)) {
      hosts.add(normalizeHost(hostPart(bindHost) + ":" + port));
    } else {
      // Bound to every interface: a client that reaches us by one of this machine's addresses names
      // it in Host.
      // Names (DNS, a proxy's) must be configured as public URLs.
      for (String address : interfaceAddresses()) {
        hosts.add(normalizeHost(hostPart(address) + ":" + port));
      }
    }
    for (URI url : publicUrls) {
      String host = normalizeHost(url.getHost());
      int defaultPort = url.getScheme().equalsIgnoreCase("https") ? 443 : 80;
      int publicPort = url.getPort() >= 0 ? url.getPort() : defaultPort;
      hosts.add(host + ":" + publicPort);
      if (publicPort == defaultPort) {
        hosts.add(host); // clients leave the scheme's default port out of Host
      }
      origins.add(url.getScheme().toLowerCase(Locale.ROOT) + "://" + host + ":" + publicPort);
    }
    for (String h : extraHosts) {
      String n = normalizeHost(h);
      hosts.add(n);
      if (!hasPort(n)) {
        hosts.add(n + ":80");
      }
    }
    for (String o : extraOrigins) {
      String n = normalizeOrigin(o);
      if (n != null) {
        origins.add(n);
      }
    }
  }

  public static boolean wildcard(String bindHost) {
    return bindHost.isEmpty()
        || bindHost.equals("0.0.0.0")
        || bindHost.equals("::")
        || bindHost.equals("[::]");
  }

  /** An address as it appears in {@code Host}: lower case, IPv6 in brackets, without a zone. */
  private static String hostPart(String address) {
    String a = address.toLowerCase(Locale.ROOT);
    int zone = a.indexOf('%');
    if (zone >= 0) {
      a = a.substring(0, zone);
    }
    return a.contains(":") && !a.startsWith("[") ? "[" + a + "]" : a;
  }

  /** The addresses of this machine's network interfaces; empty when they cannot be listed. */
  public static List<String> interfaceAddresses() {
    List<String> out = new ArrayList<>();
    try {
      for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress address : Collections.list(ni.getInetAddresses())) {
          out.add(address.getHostAddress());
        }
      }
    } catch (SocketException e) {
      // none listed: only loopback names and configured hosts pass
    }
    return out;
  }

  /** Why the request must be refused with 403, or null when Host and Origin are acceptable. */
  @Nullable
  String forbidden(@Nullable String host, @Nullable String origin) {
    if (host == null || !hostAllowed(normalizeHost(host))) {
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

  /** Whether a {@code Host} value names this machine by a loopback name or address (any port). */
  public static boolean loopbackHost(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String h = normalizeHost(host);
    int colon = h.lastIndexOf(':');
    String name = colon > h.lastIndexOf(']') ? h.substring(0, colon) : h;
    return name.equals("localhost")
        || LOOPBACK_V4.matcher(name).matches()
        || name.equals("[0:0:0:0:0:0:0:1]");
  }

  /** Whether a peer address is a loopback one. */
  public static boolean loopbackPeer(@Nullable String address) {
    return address != null
        && (LOOPBACK_V4.matcher(address).matches()
            || address.equals("::1")
            || address.equals("[::1]")
            || address.equals("0:0:0:0:0:0:0:1")
            || address.equals("[0:0:0:0:0:0:0:1]"));
  }

  /**
   * Whether a normalized {@code Host} value is accepted; one without a port means port 80 unless
   * listed bare.
   */
  private boolean hostAllowed(String host) {
    return hosts.contains(host) || (!hasPort(host) && hosts.contains(host + ":80"));
  }

  /**
   * A {@code Host} value trimmed and in lower case, an IPv6 literal written out in full
   * ({@code [::1]} and {@code [0:0:0:0:0:0:0:1]} are one address).
   */
  private static String normalizeHost(String hostHeader) {
    String h = hostHeader.trim().toLowerCase(Locale.ROOT);
    int close = h.indexOf(']');
    if (!h.startsWith("[") || close < 0) {
      return h;
    }
    String literal = h.substring(1, close);
    if (literal.isEmpty()
        || !literal.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
      return h; // not an address: it will simply not match
    }
    try {
      return hostPart(InetAddress.getByName(literal).getHostAddress()) + h.substring(close + 1);
    } catch (UnknownHostException e) {
      return h;
    }
  }

  private static boolean hasPort(String host) {
    int close = host.lastIndexOf(']');
    int colon = host.lastIndexOf(':');
    return colon > close && (host.startsWith("[") || host.indexOf(':') == colon);
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

  /**
   * Whether an {@code Accept} header admits {@code type} (such as {@code text/event-stream});
   * absent admits all.
   */
  public static boolean accepts(List<String> acceptHeaders, String type) {
    if (acceptHeaders.isEmpty()) {
      return true;
    }
    // Compared in place, case-insensitively, without cutting the header into strings: it is read on
    // every request.
    for (String header : acceptHeaders) {
      int start = 0;
      while (start <= header.length()) {
        int comma = header.indexOf(',', start);
        int end = comma < 0 ? header.length() : comma;
        int semi = header.indexOf(';', start);
        int from = start;
        int to = semi >= 0 && semi < end ? semi : end; // the media range, without its parameters
        while (from < to && header.charAt(from) <= ' ') {
          from++;
        }
        while (to > from && header.charAt(to - 1) <= ' ') {
          to--;
        }
        if (admits(header, from, to, type)) {
          return true;
        }
        start = end + 1;
      }
    }
    return false;
  }

  /**
   * Whether the media range {@code header[from, to)} admits {@code type}: itself, its
   * {@code major/*}, or {@code *}{@code /*}.
   */
  private static boolean admits(String header, int from, int to, String type) {
    int length = to - from;
    int slash = type.indexOf('/');
    return (length == type.length() && header.regionMatches(true, from, type, 0, length))
        || (length == 3 && header.startsWith("*/*", from))
        || (length == slash + 2
            && header.regionMatches(true, from, type, 0, slash + 1)
            && header.charAt(to - 1) == '*');
  }

  /** Whether a {@code Content-Type} header names JSON. */
  public static boolean isJson(@Nullable String contentType) {
    if (contentType == null) {
      return false;
    }
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi))
        .trim()
        .equalsIgnoreCase("application/json");
  }
}
