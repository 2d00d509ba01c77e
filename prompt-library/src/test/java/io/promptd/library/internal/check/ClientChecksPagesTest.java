package io.promptd.library.internal.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.Diagnostic;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ClientChecksPagesTest {
  @Test
  void aLibraryLargerThanOnePageIsSaidOnceAtItsFolder() {
    Path folder = Path.of("prompts");
    assertThat(ClientChecks.firstPageOnly(folder, 10_000)).isEmpty();
    assertThat(ClientChecks.firstPageOnly(folder, 10_250))
        .extracting(Diagnostic::format)
        .containsExactly("prompts:1: warning: Gemini CLI 0.61.0 and Qwen Code 0.24.4 read only the"
            + " first page of prompts: promptd sends them one page of 10000, so 250 of these"
            + " 10250 prompts are never offered there");
  }
}
