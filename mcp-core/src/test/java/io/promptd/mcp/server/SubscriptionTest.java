package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SampleCatalog;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code subscriptions/listen}: the acknowledgement comes first, then
 * {@code notifications/prompts/list_changed} tagged with the subscription id; a server or session
 * that closes sends notifications/cancelled for the listen request, then answers it; a cancelled
 * listen gets no answer. Every message is checked against the 2026-07-28 schema.
 */
class SubscriptionTest {
  private static final String SERVER_INFO =
      "\"io.modelcontextprotocol/serverInfo\":{\"name\":\"promptd-test\",\"title\":\"promptd test server\",\"version\":\"9.9.9\"}";
  private static final SchemaHarness MODERN = SchemaHarness.of(ProtocolVersion.V2026_07_28);

  private final McpServer server = SampleCatalog.server();
  private final ServerSession session = server.openSession(new Recorder());

  @AfterEach
  void close() {
    session.close();
    server.close();
  }

  @Test
  void acknowledgesFirstThenDeliversTaggedChangesThenAnswersWhenTheServerCloses() throws Exception {
    Recorder stream = new Recorder();
    Listening listen = listen("sub-1", "\"promptsListChanged\":true", stream);
    assertThat(conforming(stream.next()))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
                + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"sub-1\"},\"notifications\":{\"promptsListChanged\":true}}}");

    server.prompts().put(extra("added"));
    assertThat(conforming(stream.next()))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\","
            + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"sub-1\"}}}");
    server.prompts().remove("added");
    assertThat(conforming(stream.next())).contains("list_changed", "\"sub-1\"");

    server.close();
    String response = listen.response();
    assertThat(conforming(stream.next()))
        .as("cancellation.mdx: a server tearing a listen stream down MUST say so")
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"sub-1\","
                + "\"reason\":\"the server is shutting down\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"sub-1\"}}}");
    assertThat(stream.all())
        .as("the notification comes before the response, which ends the stream")
        .hasSize(4);
    MODERN.assertConforms(response, "subscriptions/listen");
    assertThat(response)
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":\"sub-1\",\"result\":{\"_meta\":"
            + "{\"io.modelcontextprotocol/subscriptionId\":\"sub-1\"," + SERVER_INFO
            + "},\"resultType\":\"complete\"}}");
  }

  @Test
  void closingTheSessionEndsItsSubscriptionsGracefully() throws Exception {
    Recorder stream = new Recorder();
    Listening listen = listen(5, "\"promptsListChanged\":true", stream);
    assertThat(stream.next()).contains("acknowledged");
    session.close();
    String response = listen.response();
    assertThat(conforming(stream.next()))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                + "\"params\":{\"requestId\":5,\"reason\":\"the session closed\",\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":5}}}");
    MODERN.assertConforms(response, "subscriptions/listen");
    assertThat(response)
        .startsWith(
            "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":5,");
  }

  @Test
  void eachSubscriptionHearsOnlyWhatItAskedFor() throws Exception {
    Recorder prompts = new Recorder();
    Recorder nothing = new Recorder();
    listen(1, "\"promptsListChanged\":true", prompts);
    listen(2, "\"toolsListChanged\":true,\"resourceSubscriptions\":[\"file:///x\"]", nothing);
    assertThat(prompts.next()).contains("acknowledged");
    assertThat(conforming(nothing.next()))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/subscriptions/acknowledged\","
                + "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":2},\"notifications\":{}}}");

    server.prompts().put(extra("one"));
    assertThat(prompts.next()).contains("list_changed");
    server
        .prompts()
        .put(extra(
            "two")); // the broadcaster fires in order: once this arrives, the first round is done
    assertThat(prompts.next()).contains("list_changed");
    assertThat(nothing.all()).hasSize(1);
  }

  @Test
  void aCancelledSubscriptionGetsNoAnswerAndNoMoreNotifications() throws Exception {
    Recorder stream = new Recorder();
    Recorder witness = new Recorder();
    Listening listen = listen(9, "\"promptsListChanged\":true", stream);
    listen(10, "\"promptsListChanged\":true", witness);
    assertThat(stream.next()).contains("acknowledged");
    assertThat(witness.next()).contains("acknowledged");
    session.handle(Wire.cancelled(9));
    assertThat(listen.awaitEnd()).as("a cancelled listen is not answered").isNull();
    server.prompts().put(extra("after"));
    assertThat(witness.next()).contains("list_changed");
    assertThat(stream.all())
        .as("the client cancelled: no notifications/cancelled back")
        .hasSize(1);
  }

  @Test
  void listeningOnAClosedServerEndsAtOnce() throws Exception {
    server.close();
    Recorder stream = new Recorder();
    String response = listen(3, "\"promptsListChanged\":true", stream).response();
    assertThat(stream.next()).contains("acknowledged");
    assertThat(response).contains("\"resultType\":\"complete\"");
  }

  @Test
  void listeningOnAClosedSessionEndsAtOnce() throws Exception {
    session.close();
    Recorder stream = new Recorder();
    String response = listen(4, "\"promptsListChanged\":true", stream).response();
    assertThat(response).contains("\"io.modelcontextprotocol/subscriptionId\":4");
  }

  /**
   * A notification being written when the server closes is finished before the listen request is
   * answered.
   */
  @Test
  void theClosingResponseFollowsANotificationInFlight() throws Exception {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    CountDownLatch sending = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    Outbound slowStream = message -> {
      String json = MessageCodec.encode(message);
      if (json.contains("list_changed")) {
        sending.countDown();
        awaitUninterruptibly(proceed);
      }
      events.add(
          json.contains("list_changed")
              ? "list_changed"
              : json.contains("cancelled") ? "cancelled" : "acknowledged");
    };
    Request request =
        Wire.modern(8, "subscriptions/listen", "\"notifications\":{\"promptsListChanged\":true}");
    Thread listener = Thread.ofVirtual().start(() -> {
      session.handle(request, slowStream);
      events.add("response");
    });
    server.prompts().put(extra("slow"));
    assertThat(sending.await(Recorder.PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();
    Thread closer = Thread.ofVirtual().start(server::close);
    listener.join(Duration.ofMillis(300)); // give a wrongly early response its chance to overtake
    proceed.countDown();
    assertThat(listener.join(Recorder.PATIENCE)).isTrue();
    assertThat(closer.join(Recorder.PATIENCE)).isTrue();
    assertThat(events).containsExactly("acknowledged", "list_changed", "cancelled", "response");
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    boolean interrupted = false;
    while (true) {
      try {
        latch.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private String conforming(String json) {
    MODERN.assertConforms(json, null);
    return json;
  }

  private static PromptDefinition extra(String name) {
    return PromptDefinition.of(
        Prompt.of(name, null, List.of()), args -> List.of(PromptMessage.user(name)));
  }

  private Listening listen(Object id, String filter, Recorder stream) {
    Request request = Wire.modern(id, "subscriptions/listen", "\"notifications\":{" + filter + "}");
    AtomicReference<Response> response = new AtomicReference<>();
    Thread thread = Thread.ofVirtual().start(() -> response.set(session.handle(request, stream)));
    return new Listening(thread, response);
  }

  private record Listening(Thread thread, AtomicReference<Response> result) {
    Response awaitEnd() throws InterruptedException {
      assertThat(thread.join(Recorder.PATIENCE)).as("the listen request ended").isTrue();
      return result.get();
    }

    String response() throws InterruptedException {
      Response r = awaitEnd();
      assertThat(r).as("a gracefully closed listen is answered").isNotNull();
      return MessageCodec.encode(r);
    }
  }
}
