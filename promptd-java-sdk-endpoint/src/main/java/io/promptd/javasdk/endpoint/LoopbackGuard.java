package io.promptd.javasdk.endpoint;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Against DNS rebinding: a request that reached the servlet on a loopback address must name a
 * loopback host in {@code Host}, and in {@code Origin} when it has one, so that a web page whose
 * name was pointed at 127.0.0.1 cannot talk to it. On any other address the deployment's own
 * filters decide.
 */
final class LoopbackGuard {
  private LoopbackGuard() {}

  /** Throws the 403 to answer when the request must not be served. */
  static void check(HttpServletRequest request) throws Refusal {
    if (!isLoopback(request.getLocalAddr())) {
      return;
    }
    if (!isLoopback(hostOf(request.getHeader("Host")))) {
      throw forbidden("the Host header names no loopback host");
    }
    String origin = request.getHeader("Origin");
    if (origin != null && !isLoopback(originHost(origin))) {
      throw forbidden("the Origin header names no loopback host");
    }
  }

  private static Refusal forbidden(String why) {
    return new Refusal(HttpServletResponse.SC_FORBIDDEN, ErrorCodes.INVALID_REQUEST, why, null);
  }

  /** The host of a {@code Host} header ({@code name[:port]}, {@code [v6][:port]}). */
  private static @Nullable String hostOf(@Nullable String authority) {
    if (authority == null || authority.isBlank()) {
      return null;
    }
    String a = authority.strip();
    if (a.startsWith("[")) {
      int end = a.indexOf(']');
      return end < 0 ? null : a.substring(1, end);
    }
    int colon = a.indexOf(':');
    return colon < 0 ? a : a.substring(0, colon);
  }

  private static @Nullable String originHost(String origin) {
    try {
      String host = new URI(origin.strip()).getHost();
      return host != null && host.startsWith("[") && host.endsWith("]")
          ? host.substring(1, host.length() - 1)
          : host;
    } catch (URISyntaxException e) {
      return null;
    }
  }

  static boolean isLoopback(@Nullable String host) {
    if (host == null) {
      return false;
    }
    String h = host.toLowerCase(Locale.ROOT);
    return h.equals("localhost")
        || h.startsWith("127.")
        || h.equals("::1")
        || h.equals("0:0:0:0:0:0:0:1")
        || h.equals("[::1]");
  }
}
