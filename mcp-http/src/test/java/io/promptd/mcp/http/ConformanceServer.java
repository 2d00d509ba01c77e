package io.promptd.mcp.http;

import io.promptd.mcp.server.McpServer;
import java.util.concurrent.CountDownLatch;

/**
 * Serves the conformance fixtures over HTTP until killed: {@code ConformanceServer [port]} (0 or
 * none: a free port). Prints {@code listening <uri>} as its only line on stdout once ready; logs go
 * to stderr.
 */
public final class ConformanceServer {
  private ConformanceServer() {}

  /** Starts the server. */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    McpServer server = ConformanceFixtures.server();
    HttpTransport http =
        HttpTransport.builder().server(server).port(port).build().start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      http.close();
      server.close();
    }));
    System.out.println("listening " + http.uri());
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
