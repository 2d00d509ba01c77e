package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.SchemaHarness;
import io.promptd.mcp.testing.Wire;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/**
 * One session serves many requests at once, as a stdio transport drives it: one virtual thread per
 * request.
 */
class ConcurrentSessionTest {
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch blocked = new CountDownLatch(1);
  private final PromptCatalog catalog = PromptCatalog.of(List.of(
      PromptDefinition.of(
          Prompt.of("echo", null, List.of(PromptArgument.required("n", null))),
          args -> List.of(PromptMessage.user("n=" + args.get("n")))),
      new PromptDefinition(
          Prompt.of("gate", null, List.of()),
          args -> {
            blocked.countDown();
            release.await();
            return GetPromptResult.of(null, List.of(PromptMessage.user("released")));
          },
          null)));

  @Test
  void concurrentRequestsEachGetTheirOwnAnswer() throws Exception {
    try (McpServer server = McpServer.builder().prompts(catalog).build()) {
      ServerSession session = server.openSession(new Recorder());
      session.handle(Wire.initialize("2025-06-18"), new Recorder());
      int n = 200;
      AtomicReferenceArray<Response> responses = new AtomicReferenceArray<>(n);
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int k = i;
        threads.add(Thread.ofVirtual()
            .start(() -> responses.set(
                k,
                session.handle(
                    Wire.legacy(
                        k, "prompts/get", "\"name\":\"echo\",\"arguments\":{\"n\":\"" + k + "\"}"),
                    new Recorder()))));
      }
      for (Thread t : threads) {
        assertThat(t.join(Recorder.PATIENCE)).isTrue();
      }
      for (int i = 0; i < n; i++) {
        SchemaHarness.of(ProtocolVersion.V2025_06_18)
            .assertConforms(MessageCodec.encode(responses.get(i)), "prompts/get");
        assertThat(MessageCodec.encode(responses.get(i)))
            .startsWith("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",")
            .contains("\"text\":\"n=" + i + "\"");
      }
    }
  }

  @Test
  void anIdAlreadyInFlightIsRefusedWithoutDisturbingTheFirst() throws Exception {
    try (McpServer server = McpServer.builder().prompts(catalog).build()) {
      ServerSession session = server.openSession(new Recorder());
      List<Response> first = new ArrayList<>();
      Thread t = Thread.ofVirtual()
          .start(() -> first.add(
              session.handle(Wire.modern(1, "prompts/get", "\"name\":\"gate\""), new Recorder())));
      assertThat(blocked.await(Recorder.PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
          .isTrue();
      Response duplicate = session.handle(Wire.modern(1, "ping", ""), new Recorder());
      SchemaHarness.of(ProtocolVersion.V2026_07_28)
          .assertConforms(MessageCodec.encode(duplicate), null);
      assertThat(MessageCodec.encode(duplicate))
          .isEqualTo(
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,\"message\":\"Invalid request: id 1 is already in flight\"}}");
      release.countDown();
      assertThat(t.join(Recorder.PATIENCE)).isTrue();
      assertThat(MessageCodec.encode(first.getFirst())).contains("released");
    }
  }

  @Test
  void concurrentInitializeRequestsInitializeOnce() throws Exception {
    try (McpServer server = McpServer.builder().prompts(catalog).build()) {
      for (int round = 0; round < 300; round++) {
        ServerSession session = server.openSession(new Recorder());
        CyclicBarrier start = new CyclicBarrier(2);
        AtomicInteger successes = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (String version : List.of("2025-03-26", "2025-06-18")) {
          threads.add(Thread.ofPlatform().start(() -> {
            try {
              start.await();
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
            Request initialize =
                Wire.legacy(version, "initialize", "\"protocolVersion\":\"" + version + "\"");
            if (session.handle(initialize, new Recorder()) instanceof ResultResponse) {
              successes.incrementAndGet();
            }
          }));
        }
        for (Thread t : threads) {
          t.join();
        }
        assertThat(successes.get()).as("round %d", round).isEqualTo(1);
        session.close();
      }
    }
  }

  @Test
  void requestsAfterAFailedRendererStillWork() {
    try (McpServer server = McpServer.builder().prompts(catalog).build()) {
      ServerSession session = server.openSession(new Recorder());
      Response missing =
          session.handle(Wire.modern(1, "prompts/get", "\"name\":\"echo\""), new Recorder());
      assertThat(missing).isInstanceOf(ErrorResponse.class);
      assertThat(session.handle(
              Wire.modern(2, "prompts/get", "\"name\":\"echo\",\"arguments\":{\"n\":\"2\"}"),
              new Recorder()))
          .isInstanceOf(ResultResponse.class);
    }
  }
}
