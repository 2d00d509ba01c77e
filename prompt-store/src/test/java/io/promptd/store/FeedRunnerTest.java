package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.Feed;
import io.promptd.library.FeedHealth;
import io.promptd.library.FeedRunner;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link FeedRunner} (prompt-library's; tested here, where the test reads java.util.logging as
 * {@link FeedHealthTest} does) runs a round per wake; an outage is logged once when found and once
 * when over, any other failure by its {@link FeedHealth}; a thread that ends other than by
 * {@code close} is a problem for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FeedRunnerTest {
  private static final String LOGGER = "promptd.test.runner";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final Logger logger = Logger.getLogger(LOGGER);
  private final List<String> logged = new CopyOnWriteArrayList<>();
  private final Handler handler = new Handler() {
    @Override
    public void publish(LogRecord record) {
      if (record.getLevel().intValue() >= Level.INFO.intValue()) {
        logged.add(record.getLevel() + " " + record.getMessage());
      }
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  };

  @BeforeEach
  void listen() {
    logger.addHandler(handler);
  }

  @AfterEach
  void stopListening() {
    logger.removeHandler(handler);
  }

  /** A feed whose rounds do what {@code outcomes} say, in turn: "away", "fail", else succeed. */
  private static class Scripted implements Feed {
    final Deque<String> outcomes = new ArrayDeque<>();
    final AtomicInteger rounds = new AtomicInteger();

    @Override
    public void round() throws Unreachable {
      String outcome;
      synchronized (outcomes) {
        outcome = outcomes.isEmpty() ? "ok" : outcomes.removeFirst();
      }
      rounds.incrementAndGet();
      switch (outcome) {
        case "away" -> throw new Unreachable(new IOException("connection refused"));
        case "fail" -> throw new IllegalStateException("a bad file");
        default -> {}
      }
    }

    @Override
    public String unreachable(Exception cause) {
      return "the source is unreachable (" + cause.getMessage() + ")";
    }

    @Override
    public String reachableAgain() {
      return "the source is reachable again";
    }
  }

  /**
   * Wakes the runner and waits for the round it asked for to start (what the runner makes of it
   * comes after: the tests wait for that before they assert).
   */
  private static void round(FeedRunner runner, Scripted feed) throws InterruptedException {
    int before = feed.rounds.get();
    runner.wake();
    assertThat(runner.await(() -> feed.rounds.get() > before, WAIT)).isTrue();
  }

  /**
   * Waits until {@code lines} lines were logged (at INFO or above): each is logged after what it
   * says was set.
   */
  private void awaitLogged(int lines) throws Exception {
    Poll.until(WAIT, Duration.ofMillis(10), () -> "logged " + logged, () -> logged.size() >= lines);
  }

  @Test
  void anOutageIsLoggedOnceWhenFoundAndOnceWhenOver() throws Exception {
    Scripted feed = new Scripted();
    feed.outcomes.addAll(List.of("away", "away", "away", "ok", "ok", "away", "ok"));
    try (FeedRunner runner = new FeedRunner(feed, LOGGER, "the test feed", "test-feed")) {
      runner.start();
      for (int i = 0; i < 3; i++) {
        round(runner, feed);
      }
      awaitLogged(1);
      assertThat(runner.away()).isTrue();
      assertThat(runner.problem()).isNull();
      assertThat(logged).containsExactly("WARNING the source is unreachable (connection refused)");
      round(runner, feed);
      round(runner, feed);
      awaitLogged(2);
      assertThat(runner.away()).isFalse();
      round(runner, feed);
      round(runner, feed);
      awaitLogged(4);
      assertThat(logged)
          .containsExactly(
              "WARNING the source is unreachable (connection refused)",
              "INFO the source is reachable again",
              "WARNING the source is unreachable (connection refused)",
              "INFO the source is reachable again");
    }
  }

  @Test
  void aRoundThatFailsIsAProblemUntilOneGoesWell() throws Exception {
    Scripted feed = new Scripted();
    feed.outcomes.addAll(List.of("fail", "fail", "ok"));
    try (FeedRunner runner = new FeedRunner(feed, LOGGER, "the test feed", "test-feed")) {
      runner.start();
      round(runner, feed);
      round(runner, feed);
      awaitLogged(1);
      String problem = "the test feed failed (a bad file); serving what it served before";
      assertThat(runner.problem()).isEqualTo(problem);
      assertThat(runner.away()).isFalse();
      round(runner, feed);
      awaitLogged(2);
      assertThat(runner.problem()).isNull();
      assertThat(logged)
          .containsExactly("SEVERE " + problem, "INFO the test feed is working again");
    }
  }

  @Test
  void theFirstLoadIsMarkedOnce() throws Exception {
    try (FeedRunner runner = new FeedRunner(new Scripted(), LOGGER, "the test feed", "test-feed")) {
      assertThat(runner.loaded()).isFalse();
      assertThat(runner.awaitLoaded(Duration.ofMillis(10))).isFalse();
      runner.markLoaded();
      runner.markLoaded();
      assertThat(runner.loaded()).isTrue();
      assertThat(runner.awaitLoaded(Duration.ZERO)).isTrue();
      assertThat(runner.firstLoad().toCompletableFuture().isDone()).isTrue();
    }
  }

  @Test
  void aThreadThatEndsOtherThanByCloseIsAProblemForGood() throws Exception {
    Feed broken = new Scripted() {
      @Override
      public void begin() {
        throw new IllegalStateException("boom");
      }
    };
    try (FeedRunner runner = new FeedRunner(broken, LOGGER, "the test feed", "test-feed")) {
      runner.start();
      Poll.until(
          WAIT, Duration.ofMillis(10), () -> "the thread stopped", () -> runner.problem() != null);
      assertThat(runner.problem())
          .isEqualTo("the test feed stopped (boom); the library no longer follows its source");
    }
  }

  @Test
  void aFeedThatRoundsAtStartRunsItsFirstRoundWithoutAWake() throws Exception {
    Scripted feed = new Scripted() {
      @Override
      public boolean roundAtStart() {
        return true;
      }
    };
    try (FeedRunner runner = new FeedRunner(feed, LOGGER, "the test feed", "test-feed")) {
      runner.start();
      assertThat(runner.await(() -> feed.rounds.get() == 1, WAIT)).isTrue();
    }
  }
}
