package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.testing.SampleCatalog;
import io.promptd.mcp.testing.TranscriptRunner;
import io.promptd.mcp.testing.Transcripts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden transcripts: each {@code transcripts/<case>/request.jsonl} is played into a fresh session
 * over the {@link SampleCatalog}, and what the server emits must equal {@code response.jsonl} line
 * for line. Every emitted line must also conform to the schema of the version it was sent under.
 *
 * <p>Run with {@code -Dgolden.update=true} to rewrite the expected files after a deliberate change
 * (then only the schemas are checked), and review the diff line by line. A new case needs a folder
 * and a line in {@code transcripts/cases.txt}.
 */
class GoldenTranscriptTest {
  private static final Path DIR = Path.of("src", "test", "resources", "transcripts");

  static List<String> cases() {
    return Transcripts.cases();
  }

  @Test
  void theIndexNamesEveryCase() throws IOException {
    try (Stream<Path> dirs = Files.list(DIR)) {
      assertThat(dirs.filter(Files::isDirectory)
              .map(p -> p.getFileName().toString())
              .sorted()
              .toList())
          .as("transcripts/cases.txt")
          .isEqualTo(Transcripts.cases());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void transcript(String name) throws IOException {
    TranscriptRunner.Result result;
    try (McpServer server = SampleCatalog.server()) {
      result = TranscriptRunner.run(server, Transcripts.requests(name));
    }
    if (Boolean.getBoolean("golden.update")) {
      Files.write(
          DIR.resolve(name).resolve("response.jsonl"), result.lines(), StandardCharsets.UTF_8);
    } else {
      assertThat(String.join("\n", result.lines()))
          .as("emitted lines of %s", name)
          .isEqualTo(String.join("\n", Transcripts.responses(name)));
    }
    assertThat(result.problems()).as("schema problems in %s", name).isEmpty();
  }
}
