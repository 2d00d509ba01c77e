package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The version clients see is the POM's (passed to tests as project.version), not a copy written in the code. */
class VersionTest {
  @Test
  void serverInfoCarriesTheBuildsVersion() {
    try (McpServer server = McpServer.builder().build()) {
      assertThat(server.serverInfo().version())
          .isEqualTo(System.getProperty("project.version"))
          .isEqualTo(Version.CURRENT);
    }
  }
}
