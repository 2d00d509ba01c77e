package io.promptd.mcp.http.internal.jetty;

import io.promptd.mcp.http.HttpMount;
import java.util.List;

/**
 * The admin listener: a second port of the same server for operators ({@code /healthz},
 * {@code /readyz} and the embedder's mounts, such as {@code /metrics}), apart from the MCP port so
 * that what it serves is never public by accident.
 *
 * @param host the address to bind
 * @param port the port to bind; 0 for any free one
 * @param mounts the embedder's mounts, by path
 */
public record AdminListener(String host, int port, List<Mounted> mounts) {
  public AdminListener {
    mounts = List.copyOf(mounts);
  }

  /** An {@link HttpMount} and the path it serves. */
  public record Mounted(String path, HttpMount mount) {}
}
