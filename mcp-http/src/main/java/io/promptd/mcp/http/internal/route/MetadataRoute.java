package io.promptd.mcp.http.internal.route;

import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.auth.ResourceServer;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.Route;
import io.promptd.mcp.http.internal.exchange.Router;

/**
 * The OAuth Protected Resource Metadata (RFC 9728): served without a token, since it tells clients
 * how to get one, but after the Host and Origin checks.
 */
public final class MetadataRoute implements Route {
  private final Gate gate;
  private final ResourceServer resource;

  public MetadataRoute(Gate gate, ResourceServer resource) {
    this.gate = gate;
    this.resource = resource;
  }

  /** Serves every metadata path on {@code router}. */
  public void mountOn(Router router) {
    resource.metadataPaths().forEach(p -> router.mount(p, this));
  }

  @Override
  public void serve(Exchange ex) {
    if (gate.hostAllowed(ex)) {
      resource.serveMetadata(ex);
    }
  }
}
