package io.promptd.mcp.http.internal.route;

import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.auth.HostCheck;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.Route;
import io.promptd.mcp.http.internal.exchange.Router;
import io.promptd.mcp.http.internal.exchange.Telemetry;
import java.util.List;

/**
 * {@code /healthz} (alive) and {@code /readyz} (every readiness check passes), on the MCP port and
 * on the admin port alike: no token needed and nothing said beyond the failing checks' names, but
 * {@code Host} checked as the listener does. They are never held by a start's hold and raise no
 * request event.
 */
public final class Probes implements Route {
  /** Liveness: 200 while the server runs. */
  public static final String HEALTHZ = "/healthz";
  /** Readiness: 200 when every readiness check passes, else 503 naming the ones that fail. */
  public static final String READYZ = "/readyz";

  private final Gate gate;
  private final HostCheck hosts;
  private final Telemetry telemetry;

  public Probes(Gate gate, HostCheck hosts, Telemetry telemetry) {
    this.gate = gate;
    this.hosts = hosts;
    this.telemetry = telemetry;
  }

  /** Serves both probes on {@code router}. */
  public void mountOn(Router router) {
    router.mount(HEALTHZ, this);
    router.mount(READYZ, this);
  }

  @Override
  public boolean held() {
    return false;
  }

  @Override
  public void serve(Exchange ex) {
    if (!gate.running()) {
      ex.probe(503, Telemetry.readinessBody(List.of("server running")));
      return;
    }
    String forbidden = hosts.forbidden(ex);
    if (forbidden != null) {
      ex.refuse(403, forbidden);
    } else if (!ex.method().equals("GET")) {
      ex.setHeader("Allow", "GET");
      ex.refuse(405, "Method Not Allowed: use GET");
    } else if (ex.path().equals(HEALTHZ)) {
      ex.probe(200, Telemetry.aliveBody());
    } else {
      List<String> failing = telemetry.notReady();
      ex.probe(failing.isEmpty() ? 200 : 503, Telemetry.readinessBody(failing));
    }
  }
}
