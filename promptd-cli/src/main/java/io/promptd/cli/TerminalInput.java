package io.promptd.cli;

import io.promptd.catalog.links.InstallLinks;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Standard input of {@code promptd serve} over stdio when a person, not an MCP client, is at it
 * (the command was typed in a terminal). The server waits for JSON-RPC lines there, which looks
 * like a hang: this says on stderr what is going on and what to run instead, once at the start, and
 * again, shorter, for each line typed that is not JSON. The bytes pass through unchanged: the
 * server still answers such a line with its {@code -32700} on stdout.
 */
final class TerminalInput extends FilterInputStream {
  private final PrintStream err;
  private final String first;
  private final String again;
  private boolean started;
  private boolean lineStart = true;

  private TerminalInput(InputStream in, PrintStream err, String first, String again) {
    super(in);
    this.err = err;
    this.first = first;
    this.again = again;
  }

  /**
   * {@code in}, watched for a person's typing; the hint is printed on {@code err} when the server
   * first reads it (it has started).
   *
   * @param directories the folders served (empty: a store or a Git branch), shown in the commands
   *     the hint suggests
   */
  static InputStream watch(InputStream in, PrintStream err, List<Path> directories) {
    return new TerminalInput(
        in,
        err,
        hint(directories),
        "promptd: that line is not JSON-RPC: MCP clients start promptd serve themselves; Ctrl-D"
            + " ends it\n");
  }

  /** What the start says, with the served folders in its commands. */
  static String hint(List<Path> directories) {
    String launcher = InstallLinks.shell(List.of(Clients.launcher()));
    List<String> folders = new ArrayList<>();
    directories.forEach(d -> folders.add(d.toString()));
    String dirs = folders.isEmpty() ? "DIR" : InstallLinks.shell(folders);
    List<String> serve = new ArrayList<>(List.of(Clients.launcher(), "serve"));
    serve.addAll(folders.isEmpty() ? List.of("DIR") : folders);
    return "promptd: standard input is a terminal. MCP clients start promptd serve themselves and"
        + " speak JSON-RPC\n"
        + "promptd: to it on stdin and stdout: there is nothing to type here (Ctrl-D ends it)."
        + " To use these prompts:\n"
        + "  " + launcher + " clients " + dirs + "   # add them to an MCP client\n"
        + "  " + launcher + " list --stdio "
        + InstallLinks.shell(List.of(InstallLinks.shell(serve)))
        + "   # list them as a client sees them\n"
        + "  " + launcher + " serve --http 3000 --catalog " + dirs
        + "   # browse them at http://127.0.0.1:3000/\n";
  }

  @Override
  public int read() throws IOException {
    start();
    int b = super.read();
    if (b >= 0) {
      see((byte) b);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    start();
    int n = super.read(buffer, offset, length);
    for (int i = 0; i < n; i++) {
      see(buffer[offset + i]);
    }
    return n;
  }

  private void start() {
    if (!started) {
      started = true;
      err.print(first);
      err.flush();
    }
  }

  /**
   * Follows the lines: the first byte of a line that is not blank tells JSON (an opening brace or
   * bracket) from typing.
   */
  private void see(byte b) {
    if (b == '\n') {
      lineStart = true;
    } else if (lineStart && b != ' ' && b != '\t' && b != '\r') {
      lineStart = false;
      if (b != '{' && b != '[') {
        err.print(again);
        err.flush();
      }
    }
  }
}
