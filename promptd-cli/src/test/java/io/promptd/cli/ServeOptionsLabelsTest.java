package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code promptd serve --store URL --label A [--label B …]}: several labels over HTTP, one over
 * stdio.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsLabelsTest {
  private static final String STORE = "postgresql://u:p@localhost:5432/prompts";

  @Test
  void labelsInTheOrderGivenOverHttp() {
    ServeOptions o = ServeOptions.parse(
        List.of("--store", STORE, "--http", "0", "--label", "production", "--label", "staging"));
    assertThat(o.labels()).containsExactly("production", "staging");
    assertThat(ServeOptions.parse(List.of("--store", STORE)).labels()).isEmpty();
  }

  @Test
  void stdioServesOneLabel() {
    assertThatThrownBy(() -> ServeOptions.parse(
            List.of("--store", STORE, "--label", "production", "--label", "staging")))
        .isInstanceOf(UsageException.class)
        .hasMessage("stdio serves one label; --label staging needs --http (each further label is"
            + " served on /labels/staging/mcp)");
  }

  @Test
  void eachLabelOnceAndValid() {
    assertThatThrownBy(() -> ServeOptions.parse(
            List.of("--store", STORE, "--http", "0", "--label", "staging", "--label", "staging")))
        .isInstanceOf(UsageException.class)
        .hasMessage("--label: each label once, not staging, staging");
    assertThatThrownBy(() -> ServeOptions.parse(List.of(
            "--store", STORE, "--http", "0", "--label", "production", "--label", "Bad/Name")))
        .isInstanceOf(UsageException.class)
        .hasMessageContaining("Bad/Name");
  }
}
