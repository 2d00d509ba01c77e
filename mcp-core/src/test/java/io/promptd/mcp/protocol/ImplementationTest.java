package io.promptd.mcp.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ImplementationTest {
  @Test
  void aNameAndAVersionNeedNoTitle() {
    assertThat(new Implementation("my-server", "1.2.0"))
        .isEqualTo(new Implementation("my-server", null, "1.2.0"));
    assertThatThrownBy(() -> new Implementation("my-server", null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("version");
  }
}
