/**
 * The web catalog: one page, shipped in this module, that browses a promptd library as a 2026-07-28 MCP client of the
 * same server's endpoint; mounted on an {@code HttpTransport} through its public mount seam.
 */
module io.promptd.catalog {
  requires static transitive org.jspecify;
  requires transitive io.promptd.mcp.http;

  exports io.promptd.catalog;
}
