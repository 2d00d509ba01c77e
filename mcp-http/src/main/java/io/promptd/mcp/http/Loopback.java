package io.promptd.mcp.http;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Whether a bind address keeps a server on this machine. */
final class Loopback {
  private Loopback() {}

  /**
   * Whether {@code host} (an address, or a name resolved once) is a loopback address only: {@code 127.0.0.0/8},
   * {@code ::1}, {@code localhost}. The wildcard addresses and anything unresolvable are not.
   */
  static boolean isLoopback(String host) {
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
}
