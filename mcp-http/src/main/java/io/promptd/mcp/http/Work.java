package io.promptd.mcp.http;

import java.io.IOException;

/** Work on a virtual thread, which may block. */
@FunctionalInterface
interface Work {
  void run() throws IOException, InterruptedException;
}
