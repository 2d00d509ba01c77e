package io.promptd.cli;

import io.promptd.library.Diagnostic;
import io.promptd.library.LibraryOptions;
import io.promptd.library.PromptLibrary;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.stdio.StdioTransport;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/** {@code promptd serve DIR…}: the prompt library over stdio. */
final class Serve {
  private Serve() {}

  static int run(ServeOptions options, PrintStream err) {
    // The transport owns stdout from here on; a stray System.out.println must not corrupt the protocol.
    OutputStream stdout = new FileOutputStream(FileDescriptor.out);
    System.setOut(err);
    try (PromptLibrary library = PromptLibrary.load(options.directories(), LibraryOptions.defaults())) {
      for (Diagnostic d : library.diagnostics()) {
        err.println(d.format());
      }
      err.println("promptd: serving " + library.catalog().size() + " prompt(s) over stdio");
      if (options.watch()) {
        library.watch();
      }
      try (McpServer server = McpServer.builder().prompts(library.catalog()).pageSize(options.pageSize()).build()) {
        StdioTransport.create(server, System.in, stdout, options.maxLineBytes()).run();
      }
      return Main.OK;
    } catch (IOException e) {
      err.println("promptd: " + e.getMessage());
      return Main.FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.FAILED;
    }
  }
}
