/**
 * promptd's prompts on the official MCP Java SDK's 2026-07-28 stack
 * ({@code io.modelcontextprotocol.modern}): {@link io.promptd.javasdk.modern.SdkModernPrompts}
 * turns a prompt catalog into the SDK's prompts feature and change publisher. The SDK and Reactor
 * publish automatic module names only.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.promptd.javasdk.modern {
  requires static transitive org.jspecify;
  requires transitive io.promptd.mcp;
  requires transitive io.modelcontextprotocol.sdk.mcp.core;
  requires transitive reactor.core;

  exports io.promptd.javasdk.modern;
}
