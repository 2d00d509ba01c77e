package io.promptd.bench;

import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.stdio.StdioTransport;

/**
 * The referee's prompts served programmatically over stdio, for load runs that should not include
 * file parsing: {@code java -cp … io.promptd.bench.BenchServer stdio [--prompts N]}.
 */
public final class BenchServer {
  private BenchServer() {}

  /** Serves until stdin ends. */
  public static void main(String[] args) throws Exception {
    int fillers = 0;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--prompts")) {
        fillers = Integer.parseInt(args[++i]);
      }
    }
    try (McpServer server =
        McpServer.builder().prompts(Fixtures.catalog(fillers)).build()) {
      StdioTransport.create(server, System.in, System.out).run();
    }
  }
}
