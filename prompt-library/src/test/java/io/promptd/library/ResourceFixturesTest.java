package io.promptd.library;

import static io.promptd.library.ResourceFormatTest.load;
import static io.promptd.library.ResourceFormatTest.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.protocol.TextResourceContents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * The resources in {@code fixtures/conformance} are exactly what the conformance suite (0.1.16)
 * reads.
 */
class ResourceFixturesTest {
  static final Path CONFORMANCE = RepositoryLibrariesTest.CONFORMANCE;

  @Test
  void theConformanceResourcesLoadCleanlyAndSayWhatTheSuiteExpects() throws IOException {
    String png = Base64.getEncoder()
        .encodeToString(Files.readAllBytes(CONFORMANCE.resolve("assets/test-image.png")));
    try (Library library = load(CONFORMANCE)) {
      assertThat(library.diagnostics()).isEmpty();
      assertThat(library.resources())
          .extracting(Resource::uri)
          .containsExactly(
              "promptd:///assets/test-image.png",
              "test://static-binary",
              "test://static-text",
              "test://watched-resource");
      assertThat(library.resources())
          .allSatisfy(r -> assertThat(r.description()).isNotBlank());
      assertThat(read(library, "test://static-text"))
          .isEqualTo(new TextResourceContents(
              "test://static-text",
              "text/plain",
              "This is the content of the static text resource.",
              null));
      assertThat(read(library, "test://static-binary"))
          .isEqualTo(new BlobResourceContents("test://static-binary", "image/png", png, null));
      assertThat(read(library, "test://watched-resource"))
          .isEqualTo(new TextResourceContents(
              "test://watched-resource", "text/plain", "Watched content.", null));
      assertThat(library.templates())
          .containsExactly(ResourceTemplate.of(
              "test://template/{id}/data", "template-data", "Data for one id", "application/json"));
      assertThat(read(library, "test://template/123/data"))
          .isEqualTo(new TextResourceContents(
              "test://template/123/data",
              "application/json",
              "{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}",
              null));
    }
  }
}
