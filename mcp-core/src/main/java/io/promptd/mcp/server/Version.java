package io.promptd.mcp.server;

/** promptd's own version, as reported in {@code serverInfo}. */
final class Version {
  static final String CURRENT = "0.1.0";

  private Version() {}
}
