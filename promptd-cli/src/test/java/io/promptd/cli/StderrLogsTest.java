package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What the library's log records say when forwarded to clients as notifications/message: no Java
 * class names.
 */
class StderrLogsTest {
  @Test
  void forwardedRecordsCarryNoJavaClassNames() {
    List<String> sent = new CopyOnWriteArrayList<>();
    Runnable stop = StderrLogs.forward("io.promptd.library", (level, message) -> sent.add(message));
    try {
      System.Logger log = new StderrLogs()
          .getLogger("io.promptd.library.Watcher", StderrLogsTest.class.getModule());
      log.log(
          System.Logger.Level.ERROR,
          "prompt library reload failed",
          new IllegalStateException("the folder /srv/prompts went away"));
      log.log(
          System.Logger.Level.ERROR,
          "prompt library reload failed",
          new UncheckedIOException(new AccessDeniedException("/srv/prompts/a.prompt.md")));
      log.log(
          System.Logger.Level.ERROR, "prompt library reload failed", new NullPointerException());
    } finally {
      stop.run();
    }
    assertThat(sent)
        .containsExactly(
            "prompt library reload failed: the folder /srv/prompts went away",
            "prompt library reload failed: /srv/prompts/a.prompt.md",
            "prompt library reload failed: internal error (details in the server's log)");
  }
}
