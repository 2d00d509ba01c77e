package io.promptd.mcp.http.internal.exchange;

import java.io.IOException;

/** Work on a virtual thread, which may block. */
@FunctionalInterface
public interface Work {
  void run() throws IOException, InterruptedException;
}
