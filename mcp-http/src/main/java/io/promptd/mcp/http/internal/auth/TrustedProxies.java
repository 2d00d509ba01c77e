package io.promptd.mcp.http.internal.auth;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The reverse proxies whose forwarding headers are believed, as addresses and CIDR ranges, and the
 * client a request through them came from: walking {@code X-Forwarded-For} from the right (each
 * proxy appends the address it saw), the first address that is not a trusted proxy. What lies left
 * of it was written by the client and proves nothing.
 */
public final class TrustedProxies {
  /** The proxies on this machine: {@code 127.0.0.0/8} and {@code ::1}. */
  public static final TrustedProxies LOOPBACK = parse(List.of("127.0.0.0/8", "::1"), "trustProxy");

  private final List<Range> ranges;

  /** An address range: the first {@code bits} bits of {@code network}. */
  private static final class Range {
    private final byte[] network;
    private final int bits;

    Range(byte[] network, int bits) {
      this.network = network;
      this.bits = bits;
    }

    boolean contains(byte[] address) {
      if (address.length != network.length) {
        return false;
      }
      int full = bits / 8;
      for (int i = 0; i < full; i++) {
        if (address[i] != network[i]) {
          return false;
        }
      }
      int rest = bits % 8;
      if (rest == 0) {
        return true;
      }
      int mask = (0xff << (8 - rest)) & 0xff;
      return (address[full] & mask) == (network[full] & mask);
    }
  }

  private TrustedProxies(List<Range> ranges) {
    this.ranges = List.copyOf(ranges);
  }

  /**
   * Parses addresses ({@code 10.0.0.5}, {@code ::1}) and CIDR ranges ({@code 10.0.0.0/8}); no
   * names, which would need DNS.
   *
   * @param where what to name in an error, such as {@code "HttpTransportBuilder.trustedProxies"}
   * @throws IllegalArgumentException naming the first entry that is neither
   */
  public static TrustedProxies parse(List<String> specs, String where) {
    List<Range> ranges = new ArrayList<>();
    for (String spec : specs) {
      String s = spec.strip();
      int slash = s.indexOf('/');
      byte[] network = literal(slash < 0 ? s : s.substring(0, slash));
      if (network == null) {
        throw new IllegalArgumentException(
            where + ": '" + spec + "' is not an IP address or a CIDR range such as 10.0.0.0/8");
      }
      int bits = network.length * 8;
      if (slash >= 0) {
        try {
          bits = Integer.parseInt(s.substring(slash + 1));
        } catch (NumberFormatException e) {
          bits = -1;
        }
        if (bits < 0 || bits > network.length * 8) {
          throw new IllegalArgumentException(
              where + ": '" + spec + "' has a prefix length outside 0.." + network.length * 8);
        }
      }
      ranges.add(new Range(network, bits));
    }
    return new TrustedProxies(ranges);
  }

  /** Whether {@code address} (an IP literal) is a trusted proxy's. */
  public boolean trusts(@Nullable String address) {
    byte[] a = address == null ? null : literal(address);
    if (a == null) {
      return false;
    }
    for (Range r : ranges) {
      if (r.contains(a)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The client of a request that a trusted proxy forwarded: in the {@code X-Forwarded-For} values
   * (each a comma-separated list, the nearest hop last), the rightmost entry that is not a trusted
   * proxy; the leftmost when all are; null when there is none.
   */
  @Nullable
  public String client(List<String> forwardedFor) {
    List<String> hops = new ArrayList<>();
    for (String header : forwardedFor) {
      for (String hop : header.split(",", -1)) {
        String h = hop.strip();
        if (!h.isEmpty()) {
          hops.add(h);
        }
      }
    }
    for (int i = hops.size() - 1; i >= 0; i--) {
      if (!trusts(hops.get(i)) || i == 0) {
        return hops.get(i);
      }
    }
    return null;
  }

  /**
   * The bytes of an IP literal (brackets and a zone allowed), or null when {@code text} is not one.
   * Only what is checked to be a literal reaches {@link InetAddress#getByName}, so no DNS query is
   * ever made.
   */
  static byte @Nullable [] literal(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.startsWith("[") && t.endsWith("]")) {
      t = t.substring(1, t.length() - 1);
    }
    int zone = t.indexOf('%');
    if (zone >= 0) {
      t = t.substring(0, zone);
    }
    boolean v6 = t.indexOf(':') >= 0;
    boolean ok = !t.isEmpty()
        && (v6
            ? t.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)
            : t.matches("\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}")
                && Arrays.stream(t.split("\\.", -1)).allMatch(o -> Integer.parseInt(o) < 256));
    if (!ok) {
      return null;
    }
    try {
      return InetAddress.getByName(t).getAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }
}
