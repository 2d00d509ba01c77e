package example;

import io.promptd.javasdk.endpoint.DualEraServlet;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/**
 * A folder of prompt files on the official MCP Java SDK, in both protocol eras, watched:
 *
 * <pre>
 * java -jar target/promptd-official-sdk-example.jar --http PORT DIR   # http://127.0.0.1:PORT/mcp
 * java -jar target/promptd-official-sdk-example.jar --stdio DIR
 * </pre>
 *
 * <p>Over HTTP, one {@link DualEraServlet} in embedded Tomcat serves both eras at {@code /mcp}
 * (port 0: a free port, printed). Over stdio, {@link StdioEras} serves the era of the client's
 * first message.
 */
public final class OfficialSdkServer {
  private OfficialSdkServer() {}

  public static void main(String[] args) throws Exception {
    boolean http = args.length == 3 && args[0].equals("--http");
    boolean stdio = args.length == 2 && args[0].equals("--stdio");
    if (!http && !stdio) {
      System.err.println("usage: promptd-official-sdk-example (--http PORT | --stdio) DIR");
      System.exit(2);
    }
    Path dir = Path.of(args[args.length - 1]);
    if (!Files.isDirectory(dir)) {
      System.err.println("promptd-official-sdk-example: not a folder: " + dir);
      System.exit(2);
    }
    try (Library library =
        Library.open(LibrarySource.folders(List.of(dir)), LibraryOptions.defaults())) {
      library.watch();
      if (http) {
        serveHttp(library, Integer.parseInt(args[1]), dir);
      } else {
        StdioEras.serve(library.catalog());
      }
    }
  }

  private static void serveHttp(Library library, int port, Path dir) throws Exception {
    Path work = Files.createTempDirectory("promptd-official-sdk-tomcat");
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(work.toString());
    tomcat.setPort(port);
    tomcat.getConnector().setProperty("address", "127.0.0.1"); // this machine only
    Context context = tomcat.addContext("", work.toString());
    Wrapper mcp = Tomcat.addServlet(context, "mcp", DualEraServlet.serving(library.catalog()));
    mcp.setAsyncSupported(true); // the SDK's streams need it
    mcp.addMapping("/mcp");
    tomcat.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        tomcat.stop();
        tomcat.destroy(); // destroys the servlet, which closes both SDK servers
      } catch (Exception e) {
        System.err.println("promptd-official-sdk-example: stopping: " + e.getMessage());
      }
    }));
    System.err.println("promptd-official-sdk-example: serving " + dir + " on http://127.0.0.1:"
        + tomcat.getConnector().getLocalPort() + "/mcp");
    tomcat.getServer().await(); // until the process is stopped
  }
}
