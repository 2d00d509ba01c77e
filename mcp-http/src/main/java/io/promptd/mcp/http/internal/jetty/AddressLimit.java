package io.promptd.mcp.http.internal.jetty;

import io.promptd.mcp.http.internal.auth.TrustedProxies;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;
import org.jspecify.annotations.Nullable;

/**
 * At most so many open connections from one client address; one more is closed as soon as it opens,
 * without a byte read. Jetty's own connection limits count all clients together, so that one client
 * could take every connection. Loopback clients count like any other; a {@linkplain TrustedProxies
 * trusted proxy}'s connections are not limited here (they carry every client's requests: the proxy
 * limits its clients).
 */
final class AddressLimit implements Connection.Listener {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");

  private final int max;
  private final @Nullable TrustedProxies exempt;
  private final Map<String, Integer> open = new ConcurrentHashMap<>();
  /** The connections counted, under their address: a refused one is counted too until it closes. */
  private final Map<Connection, String> counted = new ConcurrentHashMap<>();

  /**
   * @param max the most connections from one address
   * @param exempt the proxies whose connections are not limited, or null for none
   */
  AddressLimit(int max, @Nullable TrustedProxies exempt) {
    this.max = max;
    this.exempt = exempt;
  }

  @Override
  public void onOpened(Connection connection) {
    String address = address(connection.getEndPoint().getRemoteSocketAddress());
    if (address == null || (exempt != null && exempt.trusts(address))) {
      return;
    }
    counted.put(connection, address);
    int n = open.merge(address, 1, Integer::sum);
    if (n > max) {
      LOG.log(Level.DEBUG, "closing a connection from {0}: it has {1} open", address, max);
      connection.getEndPoint().close();
    }
  }

  @Override
  public void onClosed(Connection connection) {
    String address = counted.remove(connection);
    if (address != null) {
      open.computeIfPresent(address, (a, n) -> n <= 1 ? null : n - 1);
    }
  }

  private static @Nullable String address(@Nullable SocketAddress socket) {
    return socket instanceof InetSocketAddress inet && inet.getAddress() != null
        ? inet.getAddress().getHostAddress()
        : null;
  }
}
