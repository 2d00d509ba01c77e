/**
 * Both MCP protocol eras at one URL on the official MCP Java SDK:
 * {@link io.promptd.javasdk.endpoint.DualEraServlet} routes each request to the SDK's legacy
 * streamable HTTP servlet or to its 2026-07-28 servlet, and serves a promptd prompt catalog on both
 * at once, and a Spring Boot auto-configuration registers it for a prompt folder. The SDK, Reactor
 * and Spring publish automatic module names only; the servlet API comes with the container.
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
  requires static spring.beans;
  requires static spring.boot;
  requires static spring.boot.autoconfigure;
  requires static spring.context;
  requires static spring.core;

  exports io.promptd.javasdk.endpoint;
  exports io.promptd.javasdk.endpoint.spring;
  // Spring instantiates the auto-configuration and reads its annotations reflectively.
  opens io.promptd.javasdk.endpoint.spring to
      spring.core,
      spring.beans,
      spring.context;
}
