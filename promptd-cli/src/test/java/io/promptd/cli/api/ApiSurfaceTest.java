package io.promptd.cli.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.Linter;
import io.promptd.mcp.client.McpClient;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.stdio.StdioTransport;
import io.promptd.store.PromptStore;
import io.promptd.store.sessions.StoreSessions;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each library module's public API is what its {@code module-info} exports — every public type and member found
 * there, compared with the reviewed listing in {@code src/test/resources/api/MODULE.txt} — and every exported
 * declaration has Javadoc. Lives here because this module depends on all the others.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ApiSurfaceTest {
  private static final Path ROOT = Path.of(System.getProperty("promptd.root", ".."));

  static Stream<Arguments> modules() {
    return Stream.of(
        Arguments.of("mcp-core", McpServer.class),
        Arguments.of("mcp-stdio", StdioTransport.class),
        Arguments.of("mcp-http", HttpTransport.class),
        Arguments.of("mcp-client", McpClient.class),
        Arguments.of("prompt-library", Linter.class),
        Arguments.of("prompt-store", PromptStore.class),
        Arguments.of("prompt-store-sessions", StoreSessions.class));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modules")
  void theExportedSurfaceIsTheReviewedOne(String module, Class<?> anchor) throws Exception {
    ApiSurface.assertListingMatches(anchor, ROOT.resolve("promptd-cli/src/test/resources/api/" + module + ".txt"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modules")
  void everyExportedDeclarationHasJavadoc(String module, Class<?> anchor) throws Exception {
    assertThat(ApiSurface.undocumented(anchor, ROOT.resolve(module + "/src/main/java"))).isEmpty();
  }
}
