package io.promptd.mcp.http.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.http.internal.exchange.SseWriter;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.spi.StreamQueue;
import io.promptd.testing.McpWire;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A legacy session's event log, without HTTP: what a GET stream that resumes with
 * {@code Last-Event-ID} is sent. A client whose stream broke must hear again what it missed, or at
 * least be told that something changed, even when the bounded log no longer holds the events it
 * missed.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EventLogTest {
  private static final StreamQueue.Limits LIMITS =
      new StreamQueue.Limits(100, Duration.ofSeconds(30));
  private static final Notification LIST_CHANGED =
      new Notification(Methods.NOTIFICATION_PROMPTS_LIST_CHANGED, null);

  private static Notification log(int n) {
    return new Notification(
        Methods.NOTIFICATION_MESSAGE,
        JsonObject.builder().put("level", "info").put("data", "line " + n).build());
  }

  /**
   * The events a stream attached with {@code lastEventId} is sent, once the log is closed: (id,
   * data) pairs.
   */
  private static List<McpWire.Event> resume(EventLog events, String lastEventId)
      throws InterruptedException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SseWriter writer = new SseWriter(out);
    StreamQueue queue = events.attach(writer, lastEventId, true, writer::abort);
    events.close();
    queue.awaitEnd();
    return parse(out.toString(StandardCharsets.UTF_8));
  }

  /** The events of a stream's text that carry data (a priming event has none). */
  private static List<McpWire.Event> parse(String stream) {
    return Arrays.stream(stream.split("\n\n"))
        .map(block -> {
          String id = "";
          String data = "";
          for (String line : block.split("\n")) {
            if (line.startsWith("id: ")) {
              id = line.substring(4);
            } else if (line.startsWith("data: ")) {
              data = line.substring(6);
            }
          }
          return new McpWire.Event(id, data);
        })
        .filter(e -> !e.data().isEmpty())
        .toList();
  }

  @Test
  void resumingReplaysWhatCameAfterTheLastEventId() throws Exception {
    EventLog events = new EventLog(16, LIMITS);
    events.publish(LIST_CHANGED);
    events.publish(log(2));
    events.publish(LIST_CHANGED);
    assertThat(resume(events, "1")).extracting(McpWire.Event::id).containsExactly("2", "3");
  }

  @Test
  void aResumeFromBeforeWhatTheLogStillHoldsIsToldOfTheListChangesItMissed() throws Exception {
    EventLog events = new EventLog(4, LIMITS);
    events.publish(log(1));
    events.publish(LIST_CHANGED); // 2: pushed out of the log by the four after it
    for (int n = 3; n <= 6; n++) {
      events.publish(log(n));
    }
    List<McpWire.Event> sent = resume(events, "1");
    assertThat(sent)
        .as("the list change that left the log is sent again before the events the log holds")
        .extracting(McpWire.Event::id)
        .containsExactly("2", "3", "4", "5", "6");
    assertThat(sent.getFirst().data())
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}");
  }

  @Test
  void aResumeFromAfterTheDroppedListChangeIsNotToldOfItAgain() throws Exception {
    EventLog events = new EventLog(4, LIMITS);
    events.publish(LIST_CHANGED); // 1
    for (int n = 2; n <= 7; n++) {
      events.publish(log(n));
    }
    assertThat(resume(events, "2"))
        .extracting(McpWire.Event::id)
        .containsExactly("4", "5", "6", "7");
  }

  @Test
  void manyDroppedListChangesAreSentAgainOnceEach() throws Exception {
    EventLog events = new EventLog(2, LIMITS);
    for (int n = 1; n <= 10; n++) {
      events.publish(LIST_CHANGED);
      events.publish(log(n));
    }
    // The log holds 19 and 20; of the list changes that left it, the latest (17) stands for them
    // all.
    assertThat(resume(events, "0")).extracting(McpWire.Event::id).containsExactly("17", "19", "20");
  }
}
