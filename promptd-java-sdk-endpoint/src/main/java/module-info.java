/**
 * Both MCP protocol eras at one URL on the official MCP Java SDK:
 * {@link io.promptd.javasdk.endpoint.DualEraServlet} routes each request to the SDK's legacy
 * streamable HTTP servlet or to its 2026-07-28 servlet, and serves a promptd prompt catalog on both
 * at once. The SDK and Reactor publish automatic module names only; the servlet API comes with the
 * container.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.promptd.javasdk.endpoint {
  requires static transitive org.jspecify;
  requires transitive io.promptd.mcp;
  requires transitive io.promptd.javasdk;
  requires transitive io.promptd.javasdk.modern;
  requires transitive io.modelcontextprotocol.sdk.mcp.core;
  requires static transitive jakarta.servlet;
  requires reactor.core;

  exports io.promptd.javasdk.endpoint;
}
