package io.promptd.mcp.http.internal.jetty;

import io.promptd.mcp.http.internal.auth.TrustedProxies;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.ForwardedRequestCustomizer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;

/**
 * Believes forwarding headers from {@linkplain TrustedProxies trusted proxies} only. A request from
 * any other peer has them removed; one from a trusted proxy keeps
 * {@code X-Forwarded-Proto/Host/Port}, and its {@code X-Forwarded-For} is cut down to the one
 * client {@link TrustedProxies#client} picks (Jetty's customizer, which then applies them, would
 * take the leftmost entry: the client's own). RFC 7239 {@code Forwarded} is never believed: one
 * header is enough to get right.
 */
final class ForwardedHeaders implements HttpConfiguration.Customizer {
  private static final List<String> FORWARDING = List.of(
      HttpHeader.FORWARDED.asString(),
      HttpHeader.X_FORWARDED_FOR.asString(),
      HttpHeader.X_FORWARDED_HOST.asString(),
      HttpHeader.X_FORWARDED_PROTO.asString(),
      HttpHeader.X_FORWARDED_PORT.asString(),
      HttpHeader.X_FORWARDED_SERVER.asString(),
      "X-Proxied-Https",
      "Proxy-Ssl-Id",
      "Proxy-Auth-Cert");

  private final TrustedProxies proxies;
  private final ForwardedRequestCustomizer forwarded = new ForwardedRequestCustomizer();

  ForwardedHeaders(TrustedProxies proxies) {
    this.proxies = proxies;
  }

  @Override
  public Request customize(Request request, HttpFields.Mutable responseHeaders) {
    HttpFields headers = request.getHeaders();
    if (FORWARDING.stream().noneMatch(headers::contains)) {
      return request;
    }
    HttpFields.Mutable kept = HttpFields.build(headers);
    if (!proxies.trusts(peer(request.getConnectionMetaData().getRemoteSocketAddress()))) {
      for (String name : FORWARDING) {
        kept.remove(name);
      }
      return with(request, kept);
    }
    String client = proxies.client(headers.getValuesList(HttpHeader.X_FORWARDED_FOR));
    kept.remove(HttpHeader.FORWARDED);
    kept.remove(HttpHeader.X_FORWARDED_FOR);
    if (client != null) {
      kept.put(HttpHeader.X_FORWARDED_FOR, client);
    }
    return forwarded.customize(with(request, kept), responseHeaders);
  }

  private static Request with(Request request, HttpFields headers) {
    HttpFields fixed = headers.asImmutable();
    return new Request.Wrapper(request) {
      @Override
      public HttpFields getHeaders() {
        return fixed;
      }
    };
  }

  private static String peer(SocketAddress address) {
    return address instanceof InetSocketAddress inet && inet.getAddress() != null
        ? inet.getAddress().getHostAddress()
        : "";
  }
}
