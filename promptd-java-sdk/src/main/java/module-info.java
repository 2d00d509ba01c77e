/**
 * promptd's prompts on the official MCP Java SDK: {@link io.promptd.javasdk.SdkPrompts} registers a
 * prompt catalog's prompts and completions on an SDK server, {@link io.promptd.javasdk.SdkSkills}
 * its skills' files as resources, and a Spring Boot auto-configuration serves a prompt folder on a
 * Spring AI MCP server. The SDK, Reactor and Spring publish automatic module names only.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.promptd.javasdk {
  requires static transitive org.jspecify;
  requires transitive io.promptd.mcp;
  requires transitive io.promptd.library;
  requires transitive io.modelcontextprotocol.sdk.mcp.core;
  requires transitive reactor.core;
  requires static transitive spring.beans;
  requires static transitive spring.boot;
  requires static transitive spring.boot.autoconfigure;
  requires static transitive spring.context;
  requires static transitive spring.core;
  requires static spring.ai.mcp.annotations;
  requires static spring.ai.autoconfigure.mcp.server.common;

  exports io.promptd.javasdk;
  exports io.promptd.javasdk.spring;
  // Spring instantiates the auto-configuration and reads its annotations reflectively.
  opens io.promptd.javasdk.spring to
      spring.core,
      spring.beans,
      spring.context;
}
