package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code notifications/cancelled} stops the work (the renderer is interrupted) and suppresses the
 * response.
 */
class CancellationTest {
  private final CountDownLatch started = new CountDownLatch(1);
  private final AtomicBoolean rendererInterrupted = new AtomicBoolean();
  private McpServer server;
  private ServerSession session;

  @BeforeEach
  void open() {
    PromptDefinition slow = new PromptDefinition(
        Prompt.of("slow", "Takes forever", List.of()),
        args -> {
          started.countDown();
          try {
            Thread.sleep(TimeUnit.MINUTES.toMillis(10));
          } catch (InterruptedException e) {
            rendererInterrupted.set(true);
            throw e;
          }
          return GetPromptResult.of(null, List.of(PromptMessage.user("done")));
        },
        null);
    PromptDefinition quick = PromptDefinition.of(
        Prompt.of("quick", null, List.of()), args -> List.of(PromptMessage.user("quick")));
    server = McpServer.builder().prompts(PromptCatalog.of(List.of(slow, quick))).build();
    session = server.openSession(new Recorder());
  }

  @AfterEach
  void close() {
    session.close();
    server.close();
  }

  @Test
  void cancellingALegacyRequestInterruptsTheRendererAndSuppressesTheResponse() throws Exception {
    assertThat(MessageCodec.encode(session.handle(Wire.initialize("2025-06-18"), new Recorder())))
        .contains("\"protocolVersion\":\"2025-06-18\"");
    assertCancelled(Wire.legacy(7, "prompts/get", "\"name\":\"slow\""), 7);
  }

  @Test
  void cancellingAModernRequestWorksTheSameWay() throws Exception {
    assertCancelled(Wire.modern("m-1", "prompts/get", "\"name\":\"slow\""), "m-1");
  }

  @Test
  void theIdOfACancelledRequestMayBeUsedAgain() throws Exception {
    assertCancelled(Wire.modern(3, "prompts/get", "\"name\":\"slow\""), 3);
    Response again =
        session.handle(Wire.modern(3, "prompts/get", "\"name\":\"quick\""), new Recorder());
    assertThat(MessageCodec.encode(again)).contains("\"text\":\"quick\"");
    SchemaHarness.of(ProtocolVersion.V2026_07_28)
        .assertConforms(MessageCodec.encode(again), "prompts/get");
  }

  @Test
  void cancellingAnUnknownOrFinishedRequestChangesNothing() {
    session.handle(Wire.cancelled(99));
    session.handle(Wire.notification(
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}"));
    Response first =
        session.handle(Wire.modern(1, "prompts/get", "\"name\":\"quick\""), new Recorder());
    session.handle(Wire.cancelled(1));
    assertThat(MessageCodec.encode(first)).contains("\"result\"").contains("\"text\":\"quick\"");
    assertThat(Thread.currentThread().isInterrupted()).isFalse();
    // The session still answers (2026-07-28 has no ping: a real request, checked against the
    // schema).
    Response next =
        session.handle(Wire.modern(2, "prompts/get", "\"name\":\"quick\""), new Recorder());
    assertThat(MessageCodec.encode(next))
        .contains("\"id\":2,\"result\"")
        .contains("\"text\":\"quick\"");
    SchemaHarness.of(ProtocolVersion.V2026_07_28)
        .assertConforms(MessageCodec.encode(next), "prompts/get");
  }

  /**
   * A cancellation that arrives as a request finishes must not interrupt whatever the thread does
   * next: here the next request on the same thread, as in a batch. A request that is answered never
   * saw an interrupt.
   */
  @Test
  void aLateCancellationNeverInterruptsTheNextRequestOnTheSameThread() throws Exception {
    Set<String> sawInterrupt = ConcurrentHashMap.newKeySet();
    AtomicReference<String> current = new AtomicReference<>("");
    server
        .prompts()
        .put(new PromptDefinition(
            Prompt.of("probe", null, List.of()),
            args -> {
              if (Thread.currentThread().isInterrupted()) {
                sawInterrupt.add(current.get());
              }
              return GetPromptResult.of(null, List.of(PromptMessage.user("probe")));
            },
            null));
    AtomicBoolean stop = new AtomicBoolean();
    Thread canceller = Thread.ofPlatform().start(() -> {
      while (!stop.get()) {
        session.cancel(RequestId.of(current.get()));
      }
    });
    List<String> answeredButInterrupted = new ArrayList<>();
    try {
      for (int i = 0; i < 10_000; i++) {
        String id = "r" + i;
        current.set(id);
        Response r =
            session.handle(Wire.modern(id, "prompts/get", "\"name\":\"probe\""), new Recorder());
        // Whatever happened, start the next request clean, as a fresh thread would
        Thread.interrupted();
        if (r != null && sawInterrupt.contains(id)) {
          answeredButInterrupted.add(id);
        }
      }
    } finally {
      stop.set(true);
      canceller.join();
    }
    assertThat(answeredButInterrupted).isEmpty();
  }

  private void assertCancelled(Request request, Object id) throws Exception {
    AtomicReference<Response> response = new AtomicReference<>();
    AtomicBoolean leftInterrupted = new AtomicBoolean(true);
    AtomicBoolean returned = new AtomicBoolean();
    Thread worker = Thread.ofVirtual().start(() -> {
      response.set(session.handle(request, new Recorder()));
      returned.set(true);
      leftInterrupted.set(Thread.currentThread().isInterrupted());
    });
    assertThat(started.await(Recorder.PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
        .isTrue();
    session.handle(Wire.cancelled(id));
    assertThat(worker.join(Recorder.PATIENCE))
        .as("the request finished after cancellation")
        .isTrue();
    assertThat(returned).isTrue();
    assertThat(response.get()).as("a cancelled request gets no response").isNull();
    assertThat(rendererInterrupted).as("the renderer was interrupted").isTrue();
    assertThat(leftInterrupted).as("the interrupt does not outlive the request").isFalse();
  }
}
