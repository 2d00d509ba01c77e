package io.promptd.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientOptionsTest {
  @Test
  void theClientReportsTheBuildsVersion() {
    assertThat(ClientOptions.defaults().clientInfo().version())
        .isEqualTo(System.getProperty("project.version"));
  }

  @Test
  void headersAreCheckedReplacedByNameAndNeverShown() {
    ClientOptions o = ClientOptions.defaults()
        .withBearerToken("s3cret-token")
        .withHeader("X-Team", "a")
        .withHeader("authorization", "Bearer other");
    assertThat(o.headers()).isEqualTo(Map.of("X-Team", "a", "authorization", "Bearer other"));
    assertThat(o.toString())
        .doesNotContain("s3cret", "other")
        .contains("headers=[X-Team, authorization]");
    assertThat(o.withTimeout(Duration.ofSeconds(1)).withForms(null).headers())
        .isEqualTo(o.headers());
    assertThatThrownBy(() -> ClientOptions.defaults().withHeader("Bad Name", "x"))
        .hasMessageContaining("not an HTTP header name");
    assertThatThrownBy(() -> ClientOptions.defaults().withHeader("X-A", "a\r\nInjected: 1"))
        .hasMessageContaining("control character");
    assertThatThrownBy(() -> ClientOptions.defaults().withHeader("Mcp-Session-Id", "x"))
        .hasMessageContaining("sets Mcp-Session-Id itself");
    assertThatThrownBy(() -> ClientOptions.defaults().withBearerToken("a b"))
        .hasMessageContaining("one word");
  }
}
