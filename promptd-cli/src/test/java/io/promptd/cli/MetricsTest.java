package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.mcp.server.McpServer;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a scrape of {@code /metrics} holds besides promptd's own series: the JVM's and the
 * process's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MetricsTest {
  @Test
  void aScrapeCarriesJvmAndProcessMetrics(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("hello.prompt.md"), "---\ndescription: d\n---\nhello\n");
    try (Library library =
            Library.open(LibrarySource.folders(List.of(dir)), LibraryOptions.defaults());
        McpServer server = McpServer.builder().prompts(library.catalog()).build()) {
      Metrics metrics = new Metrics(server, library);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      metrics.write(out);
      String scrape = out.toString(StandardCharsets.UTF_8);
      assertThat(scrape)
          .contains("promptd_library_prompts 1")
          .contains("jvm_memory_used_bytes{")
          .contains("jvm_threads_current ")
          .contains("jvm_gc_collection_seconds_count{")
          .contains("process_cpu_seconds_total ")
          .contains("process_start_time_seconds ")
          .contains("process_open_fds ")
          .contains("process_resident_memory_bytes ");
    }
  }
}
