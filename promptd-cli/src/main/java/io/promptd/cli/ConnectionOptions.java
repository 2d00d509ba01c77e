package io.promptd.cli;

import io.promptd.mcp.http.HttpLimits;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What {@code promptd serve --http} believes and allows of its clients' connections.
 *
 * @param trustedProxies the proxies whose {@code X-Forwarded-*} headers are believed, as addresses
 *     and CIDR ranges; empty for none ({@code --trust-proxy [ADDR,...]})
 * @param maxConnectionsPerAddress the most open connections from one client address
 *     ({@code --max-connections-per-address})
 * @param maxStreamsPerClient the most event streams one client may hold open
 *     ({@code --max-streams-per-client})
 * @param headerTimeoutSeconds how long a request's headers may take to arrive
 *     ({@code --header-timeout})
 * @param maxConnections the most open connections to the MCP port, for everyone together
 *     ({@code --max-connections})
 * @param minBodyRate the slowest, in bytes per second, a request body may arrive
 *     ({@code --min-body-rate})
 */
record ConnectionOptions(
    List<String> trustedProxies,
    int maxConnectionsPerAddress,
    int maxStreamsPerClient,
    int headerTimeoutSeconds,
    int maxConnections,
    int minBodyRate) {
  /** What a bare {@code --trust-proxy} trusts: a proxy on this machine. */
  static final List<String> LOOPBACK_PROXY = List.of("127.0.0.0/8", "::1");

  /**
   * The defaults: no proxy trusted, 256 connections per address, 32 streams per client, 20 s for
   * headers, 10,000 connections in all, bodies at 1 KiB/s at least ({@link HttpLimits#DEFAULTS}).
   */
  static final ConnectionOptions DEFAULT = new ConnectionOptions(
      List.of(),
      HttpLimits.DEFAULTS.maxConnectionsPerAddress(),
      HttpLimits.DEFAULTS.maxStreamsPerClient(),
      (int) HttpLimits.DEFAULTS.requestHeaderTimeout().toSeconds(),
      HttpLimits.DEFAULTS.maxConnections(),
      HttpLimits.DEFAULTS.minRequestDataRate());

  private static final Pattern ADDRESS =
      Pattern.compile("[0-9A-Fa-f:.]*[.:][0-9A-Fa-f:.]*(/\\d{1,3})?");

  ConnectionOptions {
    trustedProxies = List.copyOf(trustedProxies);
  }

  /**
   * Whether {@code value} looks like the address list of {@code --trust-proxy} rather than a
   * folder: not a folder, and each entry made of hex digits, dots and colons with a digit among
   * them.
   */
  static boolean looksLikeAddresses(String value) {
    if (Files.isDirectory(Path.of(value))) {
      return false;
    }
    for (String part : value.split(",", -1)) {
      String p = part.strip();
      if (!ADDRESS.matcher(p).matches() || p.chars().noneMatch(c -> Character.digit(c, 16) >= 0)) {
        return false;
      }
    }
    return true;
  }

  private static boolean v4(String address) {
    String[] octets = address.split("\\.", -1);
    if (octets.length != 4) {
      return false;
    }
    for (String o : octets) {
      if (!o.matches("\\d{1,3}") || Integer.parseInt(o) > 255) {
        return false;
      }
    }
    return true;
  }

  /**
   * The addresses and CIDR ranges of {@code --trust-proxy}, each checked (literals only: no DNS).
   *
   * @throws UsageException naming an entry that is not one
   */
  static List<String> proxies(String value) {
    List<String> out = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      String p = part.strip();
      int slash = p.indexOf('/');
      String address = slash < 0 ? p : p.substring(0, slash);
      int max;
      try {
        if (!ADDRESS.matcher(p).matches() || !(address.contains(":") || v4(address))) {
          throw new UnknownHostException(p); // checked first: only a literal may reach getByName
        }
        max = InetAddress.getByName(address).getAddress().length * 8;
      } catch (UnknownHostException e) {
        throw new UsageException(
            "--trust-proxy needs IP addresses or CIDR ranges such as 10.0.0.0/8, not '" + p + "'");
      }
      if (slash >= 0 && Integer.parseInt(p.substring(slash + 1)) > max) {
        throw new UsageException("--trust-proxy: '" + p + "' has a prefix longer than " + max);
      }
      out.add(p);
    }
    return out;
  }
}
