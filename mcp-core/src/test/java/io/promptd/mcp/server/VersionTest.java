package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Implementation;
import org.junit.jupiter.api.Test;

/**
 * The version clients see is the POM's (passed to tests as project.version), not a copy written in
 * the code.
 */
class VersionTest {
  @Test
  void serverInfoCarriesTheBuildsVersion() {
    try (McpServer server = McpServer.builder().build()) {
      assertThat(server.serverInfo().version())
          .isEqualTo(System.getProperty("project.version"))
          .isEqualTo(Version.CURRENT);
    }
  }

  @Test
  void aServerNamesItselfAsItsAuthorSaysNotPromptd() {
    try (McpServer server = McpServer.builder().build()) {
      assertThat(server.serverInfo().name()).isEqualTo("mcp-server");
      assertThat(server.serverInfo().title()).isNull();
      assertThat(McpServer.libraryVersion()).isEqualTo(Version.CURRENT);
    }
    Implementation mine = new Implementation("acme-prompts", "2.0.1");
    try (McpServer server = McpServer.builder().serverInfo(mine).build()) {
      assertThat(server.serverInfo()).isEqualTo(mine);
    }
  }
}
