package io.promptd.mcp.json;

/** JSON {@code null}. */
public enum JsonNull implements Json {
  /** The only instance. */
  INSTANCE
}
