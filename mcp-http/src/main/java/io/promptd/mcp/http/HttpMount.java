package io.promptd.mcp.http;

import io.promptd.mcp.api.Stability;
import java.io.IOException;

/**
 * Something served at a path of the transport's port beside the MCP endpoint, such as a web page,
 * or at a path of its {@linkplain HttpTransportBuilder#admin admin listener}, such as metrics: see
 * {@link HttpTransportBuilder#mount(String, HttpMount)} and
 * {@link HttpTransportBuilder#adminMount(String, HttpMount)}.
 *
 * <p>A request reaches it after the listener's checks: a running server, and the {@code Host} (on
 * the MCP port also the {@code Origin}) header allowed; not the MCP endpoint's authentication, so a
 * mount must serve nothing that needs a token, unless it is added with
 * {@link HttpTransportBuilder#authenticatedMount}. It runs on a virtual thread of its own and may
 * block. What it sends raises no {@link RequestEvent}; on the MCP port a refusal does, as any
 * refused request. What it throws is logged and answered with 500.
 */
@FunctionalInterface
@Stability(Stability.Tier.STABLE)
public interface HttpMount {
  /**
   * Answers one request; every path through it must call {@link MountResponse#send} or
   * {@link MountResponse#refuse} once.
   *
   * @param request the request
   * @param response where its answer goes
   * @throws IOException when the answer cannot be made (answered with 500)
   */
  void serve(MountRequest request, MountResponse response) throws IOException;
}
