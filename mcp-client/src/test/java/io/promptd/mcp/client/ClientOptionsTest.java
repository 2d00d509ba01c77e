package io.promptd.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClientOptionsTest {
  @Test
  void theClientReportsTheBuildsVersion() {
    assertThat(ClientOptions.defaults().clientInfo().version()).isEqualTo(System.getProperty("project.version"));
  }
}
