package io.promptd.mcp.http.internal.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Whether a bind address keeps a server on this machine. */
public final class Loopback {
  private Loopback() {}

  /**
   * Whether {@code host} (an address, or a name resolved once) is a loopback address only:
   * {@code 127.0.0.0/8}, {@code ::1}, {@code localhost}. The wildcard addresses and anything
   * unresolvable are not.
   */
  public static boolean isLoopback(String host) {
    String h =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    if (h.isEmpty()) {
      return false;
    }
    try {
      for (InetAddress address : InetAddress.getAllByName(h)) {
        if (!address.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * Whether a URL's host names this machine without asking DNS: {@code localhost} (and its
   * subdomains, RFC 6761) or a loopback address literal. Any other name is taken to be reachable
   * from elsewhere.
   */
  public static boolean isLoopbackName(@Nullable String host) {
    if (host == null || host.isEmpty()) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    if (h.equals("localhost") || h.endsWith(".localhost")) {
      return true;
    }
    boolean literal =
        h.startsWith("[") || h.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    return literal && isLoopback(h); // an address literal is parsed, never looked up
  }
}
