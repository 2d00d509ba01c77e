package io.promptd.library.internal.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.parse.text.Root;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing the folder watcher (every stdio session's end) stops its thread and is not reported as a
 * failure: the closed watch service once went to the failure handler as a round's error, logged
 * "the folder watcher failed" at every session end and spun the thread on the closed service.
 */
class WatcherCloseTest {
  @Test
  void closingStopsTheThreadWithoutAFailure(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.prompt.md"), "---\nname: a\n---\nHello\n");
    Root root = new Root(dir, dir.toRealPath(), 0);
    Watcher watcher =
        Watcher.start(List.of(root), Duration.ofMillis(20), changed -> {}, found -> {});
    assertThat(watcher.running()).isTrue();
    watcher.close();
    assertThat(watcher.running())
        .as("the watching thread ended within close()'s wait")
        .isFalse();
    assertThat(watcher.problem()).as("a close is not a failure").isNull();
  }
}
