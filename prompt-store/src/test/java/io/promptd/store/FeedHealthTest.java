package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.FeedHealth;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A feed failing round after round is logged once and reported until a round goes well; a stopped
 * feed for good.
 */
class FeedHealthTest {
  @Test
  void aFailureIsLoggedOnceAndReportedUntilARoundGoesWell() {
    Logger logger = Logger.getLogger("promptd.test.feed");
    List<String> logged = new CopyOnWriteArrayList<>();
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getLevel().intValue() >= Level.INFO.intValue()) {
          logged.add(record.getMessage());
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    logger.addHandler(handler);
    try {
      FeedHealth health = new FeedHealth("promptd.test.feed", "the test feed");
      assertThat(health.problem()).isNull();
      for (int round = 0; round < 3; round++) {
        health.failed(new StackOverflowError());
      }
      String problem =
          "the test feed failed (something it read is nested too deeply); serving what it served before";
      assertThat(health.problem()).isEqualTo(problem);
      assertThat(logged).containsExactly(problem);
      health.succeeded();
      assertThat(health.problem()).isNull();
      assertThat(logged).containsExactly(problem, "the test feed is working again");

      health.stopped(new IllegalStateException("boom"));
      health.succeeded();
      assertThat(health.problem())
          .isEqualTo("the test feed stopped (boom); the library no longer follows its source");
    } finally {
      logger.removeHandler(handler);
    }
  }
}
