package io.promptd.mcp.http.internal.route;

import io.promptd.mcp.http.HttpMount;
import io.promptd.mcp.http.MountRequest;
import io.promptd.mcp.http.MountResponse;
import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.auth.Guard;
import io.promptd.mcp.http.internal.auth.HostCheck;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.Route;
import io.promptd.mcp.spi.Caller;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An embedder's {@link HttpMount} as a route: the listener's checks, then the mount, seeing no
 * Jetty type.
 */
public final class MountRoute implements Route {
  private final Gate gate;
  private final HostCheck hosts;
  private final HttpMount mount;

  public MountRoute(Gate gate, HostCheck hosts, HttpMount mount) {
    this.gate = gate;
    this.hosts = hosts;
    this.mount = mount;
  }

  @Override
  public void serve(Exchange ex) throws IOException {
    if (!gate.running()) {
      ex.refuse(503, "Service unavailable: the server is not running");
      return;
    }
    String forbidden = hosts.forbidden(ex);
    if (forbidden != null) {
      ex.refuse(403, forbidden);
      return;
    }
    HttpMount served = mount;
    if (mount instanceof Mounts.Authenticated(HttpMount inner)) {
      if (!gate.admitted(ex)) {
        return; // refused with 400, 401 or 403 and the challenge, as the MCP endpoint refuses
      }
      served = inner;
    }
    View view = new View(ex);
    served.serve(view, view);
  }

  /** The exchange as a mount sees it. */
  private record View(Exchange ex) implements MountRequest, MountResponse {
    @Override
    public String method() {
      return ex.method();
    }

    @Override
    public String path() {
      return ex.path();
    }

    @Override
    public @Nullable String query() {
      return ex.query();
    }

    @Override
    public Caller caller() {
      return ex.caller();
    }

    @Override
    public @Nullable String header(String name) {
      return ex.header(name);
    }

    @Override
    public List<String> headers(String name) {
      return ex.headers(name);
    }

    @Override
    public byte @Nullable [] body(int max) throws IOException {
      if (max < 0) {
        throw new IllegalArgumentException(
            "MountRequest.body: max must not be negative, not " + max);
      }
      return ex.body(max);
    }

    @Override
    public @Nullable String remoteAddress() {
      return ex.remoteAddress();
    }

    @Override
    public boolean fromThisMachine() {
      return Guard.loopbackHost(ex.authority()) && Guard.loopbackPeer(ex.remoteAddress());
    }

    @Override
    public MountResponse header(String name, String value) {
      ex.setHeader(name, value);
      return this;
    }

    @Override
    public void send(int status, String contentType, byte[] body) {
      ex.asset(status, contentType, body);
    }

    @Override
    public void refuse(int status, String message) {
      ex.refuse(status, message);
    }
  }
}
