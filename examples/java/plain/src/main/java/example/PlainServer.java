package example;

import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.stdio.StdioTransport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Serves a folder of prompt files with promptd's own server: {@code --stdio DIR} over stdio, {@code --http PORT DIR}
 * over Streamable HTTP at {@code http://127.0.0.1:PORT/mcp}, for clients of both protocol eras. Edits to the folder
 * reach clients as they are saved.
 */
public final class PlainServer {
  private PlainServer() {}

  public static void main(String[] args) throws Exception {
    boolean stdio = args.length == 2 && args[0].equals("--stdio");
    boolean http = args.length == 3 && args[0].equals("--http") && args[1].matches("[0-9]{1,5}");
    if (!stdio && !http) {
      System.err.println("usage: java -jar promptd-plain-example.jar --stdio DIR | --http PORT DIR");
      System.exit(2);
    }
    Path dir = Path.of(args[args.length - 1]);
    if (!Files.isDirectory(dir)) {
      System.err.println("not a folder: " + dir);
      System.exit(2);
    }
    try (Library library = Library.open(LibrarySource.folders(List.of(dir)), LibraryOptions.defaults())) {
      library.diagnostics().forEach(d -> System.err.println(d.format())); // FILE:LINE: error: …
      library.watch();
      try (McpServer server = McpServer.builder().prompts(library.catalog()).resources(library).build()) {
        if (stdio) {
          StdioTransport.create(server, System.in, System.out).run(); // until the client closes stdin
          return;
        }
        try (HttpTransport transport = HttpTransport.builder()
            .server(server)
            .port(Integer.parseInt(args[1]))
            .build()
            .start()) {
          System.err.println("MCP endpoint: " + transport.uri());
          Runtime.getRuntime().addShutdownHook(new Thread(transport::close));
          transport.await();
        }
      }
    }
  }
}
