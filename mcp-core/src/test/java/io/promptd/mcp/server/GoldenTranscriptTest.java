package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.testing.SampleCatalog;
import io.promptd.mcp.testing.TranscriptRunner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden transcripts: each {@code transcripts/<case>/request.jsonl} is played into a fresh session over the
 * {@link SampleCatalog}, and what the server emits must equal {@code response.jsonl} line for line. Every emitted line
 * must also conform to the schema of the version it was sent under.
 *
 * <p>Run with {@code -Dgolden.update=true} to rewrite the expected files after a deliberate change, then review the
 * diff line by line.
 */
class GoldenTranscriptTest {
  private static final Path DIR = Path.of("src", "test", "resources", "transcripts");

  static Stream<String> cases() throws IOException {
    try (Stream<Path> dirs = Files.list(DIR)) {
      return dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void transcript(String name) throws IOException {
    Path dir = DIR.resolve(name);
    List<String> requests = Files.readAllLines(dir.resolve("request.jsonl"), StandardCharsets.UTF_8).stream()
        .filter(line -> !line.isBlank())
        .toList();
    TranscriptRunner.Result result;
    try (McpServer server = SampleCatalog.server()) {
      result = TranscriptRunner.run(server, requests);
    }
    Path expectedFile = dir.resolve("response.jsonl");
    if (Boolean.getBoolean("golden.update")) {
      Files.write(expectedFile, result.lines(), StandardCharsets.UTF_8);
    }
    List<String> expected = Files.readAllLines(expectedFile, StandardCharsets.UTF_8);
    assertThat(String.join("\n", result.lines())).as("emitted lines of %s", name).isEqualTo(String.join("\n", expected));
    assertThat(result.problems()).as("schema problems in %s", name).isEmpty();
  }
}
