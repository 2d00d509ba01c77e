package io.promptd.javasdk.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.testing.ApiSurface;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * This module's public API is what its {@code module-info} exports — every public type and member
 * found there — compared with the reviewed listing in {@code api.txt} beside the module's
 * {@code pom.xml} (rewrite it with {@code -Dapi.surface.update=true}, then review the diff); and
 * every exported declaration has Javadoc.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ApiListingTest {
  @Test
  void theExportedSurfaceIsTheReviewedOne() throws Exception {
    ApiSurface.assertListingMatches(DualEraServlet.class, Path.of("api.txt"));
  }

  @Test
  void everyExportedDeclarationHasJavadoc() throws Exception {
    assertThat(ApiSurface.undocumented(DualEraServlet.class, Path.of("src/main/java")))
        .isEmpty();
  }
}
