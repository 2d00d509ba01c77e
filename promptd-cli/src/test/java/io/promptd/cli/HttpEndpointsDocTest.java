package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/http.md's table of endpoints names every path the code serves: the management API's paths as
 * {@link ManageApi#PATHS} lists them, the Git webhook's, the label endpoints', and the transport's
 * own.
 */
class HttpEndpointsDocTest {
  @Test
  void theEndpointsTableNamesEveryPathServed() throws Exception {
    String doc = Files.readString(DocLines.DOCS.resolve("http.md"), UTF_8);
    int at = doc.indexOf("\n## Endpoints\n");
    assertThat(at).isNotNegative();
    String table = doc.substring(at, doc.indexOf("\n## ", at + 1));
    List<String> paths = new ArrayList<>(List.of(
        "/mcp",
        "/sse",
        "/messages",
        "/healthz",
        "/readyz",
        "/metrics",
        "/.well-known/oauth-protected-resource/mcp",
        "/catalog/",
        GitOptions.WEBHOOK_PATH,
        StoreViews.path("LABEL")));
    for (String p : ManageApi.PATHS) {
      // The table writes the API's paths after the first as /manage/v1/prompts, /versions, …
      paths.add(p.equals(ManageApi.BASE + "/prompts") ? p : p.substring(ManageApi.BASE.length()));
    }
    for (String p : paths) {
      assertThat(table).as("docs/http.md's endpoints table names " + p).contains("`" + p);
    }
  }
}
