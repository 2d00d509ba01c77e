/**
 * Streamable HTTP for promptd's MCP server: legacy sessions (2025-03-26 to 2025-11-25) and modern
 * stateless requests (2026-07-28) on one endpoint, on an embedded Jetty whose types stay inside
 * this module.
 */
module io.promptd.mcp.http {
  requires static transitive org.jspecify;
  requires transitive io.promptd.mcp;
  requires org.eclipse.jetty.server;
  requires com.nimbusds.jose.jwt;
  requires java.net.http;

  exports io.promptd.mcp.http;
}
