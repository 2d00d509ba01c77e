package io.promptd.cli;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code serve} says about its {@code --public-url}s before it starts. A public URL makes the
 * Host and Origin checks accept its host; without authentication, whatever forwards such requests
 * to the loopback port (a proxy that sends no {@code X-Forwarded-*}, a tunnel) then serves anyone
 * who reaches it. With {@code --trust-proxy} the HTTP transport refuses to start in that case;
 * without it, the forwarding is not promptd's to see, so it warns.
 */
final class PublicUrls {
  private PublicUrls() {}

  /**
   * One warning per public URL beyond this machine that {@code options} would serve without
   * authentication.
   */
  static List<String> warnings(ServeOptions options) {
    if (!options.http()
        || options.token() != null
        || options.oauth() != null
        || !options.connections().trustedProxies().isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (URI url : options.publicUrls()) {
      String host = String.valueOf(url.getHost());
      if (!onThisMachine(host)) {
        out.add("--public-url " + url + " has requests for " + host + " accepted without"
            + " authentication: whatever forwards them here (a proxy, a tunnel) serves them to"
            + " anyone who reaches it; require --token or --oauth-issuer");
      }
    }
    return out;
  }

  /** Whether {@code host} (a URL's: IPv6 in brackets) names this machine; literals only, no DNS. */
  private static boolean onThisMachine(String host) {
    String h =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    String lower = h.toLowerCase(Locale.ROOT);
    if (lower.equals("localhost") || lower.endsWith(".localhost")) {
      return true;
    }
    if (!h.contains(":") && !h.matches("[0-9.]+")) {
      return false; // a name: getByName would ask DNS
    }
    try {
      return InetAddress.getByName(h).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
