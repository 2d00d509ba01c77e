/**
 * The web catalog: one page, shipped in this module, that browses a promptd library as a 2026-07-28
 * MCP client of the same server's endpoint; mounted on an {@code HttpTransport} through its public
 * mount seam. Beside it, the install links of the MCP clients ({@code io.promptd.catalog.links}),
 * which the page shows and {@code promptd clients} prints.
 */
module io.promptd.catalog {
  requires static transitive org.jspecify;
  requires transitive io.promptd.mcp.http;

  exports io.promptd.catalog;
  exports io.promptd.catalog.links;
}
