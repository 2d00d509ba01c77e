/**
 * promptd's prompt library: prompt files ({@code *.prompt.md}, Claude Code commands, VS Code prompt
 * files and the other formats) parsed into an MCP {@link io.promptd.mcp.server.PromptCatalog}, from
 * folders kept current by a file watcher or from a snapshot held elsewhere, and linted.
 *
 * <p>Only {@code io.promptd.library} is exported; parsing and rendering stay internal.
 */
module io.promptd.library {
  requires static transitive org.jspecify;
  requires transitive io.promptd.mcp;
  requires org.snakeyaml.engine;
  requires com.samskivert.jmustache;

  exports io.promptd.library;
}
