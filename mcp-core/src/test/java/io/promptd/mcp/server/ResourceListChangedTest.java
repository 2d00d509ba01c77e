package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StatelessEndpoint;
import io.promptd.mcp.testing.Recorder;
import io.promptd.mcp.testing.Wire;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code notifications/resources/list_changed} for a change the provider scopes
 * ({@link ResourceProvider.Listener#listChanged(Set)}) reaches only the sessions and listen streams
 * whose caller may see a resource that changed, as prompts' {@code list_changed} does; an unscoped
 * change reaches every caller.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResourceListChangedTest {
  private static final String LIST_CHANGED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}";
  private static final Caller TEAM = Caller.authenticated("alice", Set.of("team"));
  private static final Caller NOBODY = Caller.authenticated("bob", Set.of());

  private final Provider provider = new Provider();
  private final McpServer server = McpServer.builder().resources(provider).build();
  private final StatelessEndpoint stateless = server.openStateless();

  @AfterEach
  void close() {
    server.close();
  }

  @Test
  void aChangeToAResourceOnlySomeScopesSeeReachesOnlyTheirSessions() throws Exception {
    Recorder bobs = new Recorder();
    Recorder alices = new Recorder();
    Recorder admins = new Recorder();
    ServerSession bob = session(bobs, NOBODY);
    ServerSession alice = session(alices, TEAM);
    ServerSession admin = session(admins, Caller.UNRESTRICTED);

    provider.listener().listChanged(Set.of(Set.of("team")));
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    assertThat(admins.next()).isEqualTo(LIST_CHANGED);
    provider.listener().listChanged(Set.of(Set.of("team"), Set.of()));
    // Notifications go out in order on one thread: bob's first one is for the change he may see.
    assertThat(bobs.next()).isEqualTo(LIST_CHANGED);
    assertThat(alices.next()).isEqualTo(LIST_CHANGED);
    assertThat(bobs.all()).hasSize(1);

    provider.listener().listChanged();
    assertThat(bobs.next()).as("an unscoped change is everyone's").isEqualTo(LIST_CHANGED);
    bob.close();
    alice.close();
    admin.close();
  }

  @Test
  void aListenStreamHearsOnlyOfChangesItsCallerMaySee() throws Exception {
    Recorder stream = new Recorder();
    Request listen = Wire.modern(
        "sub",
        "subscriptions/listen",
        "\"notifications\":{\"resourcesListChanged\":true,"
            + "\"resourceSubscriptions\":[\"test://x\"]}");
    Thread thread = Thread.ofVirtual()
        .start(() -> stateless
            .receive(
                new Incoming.Single(listen),
                new RequestHeaders("2026-07-28", listen.method(), null),
                NOBODY)
            .run(stream));
    assertThat(stream.next()).contains("notifications/subscriptions/acknowledged");
    provider.listener().listChanged(Set.of(Set.of("team")));
    provider.listener().updated("test://x");
    provider.listener().listChanged(Set.of(Set.of()));
    // Notifications go out in order on one thread: had the first reached the stream, it would come
    // first.
    assertThat(stream.next()).contains("notifications/resources/updated");
    assertThat(stream.next()).contains("notifications/resources/list_changed");
    stateless.endStreams();
    assertThat(thread.join(Recorder.PATIENCE)).isTrue();
  }

  /** A legacy session whose requests come from {@code caller}. */
  private ServerSession session(Recorder out, Caller caller) {
    ServerSession session = server.openSession(out);
    session.receive(new Incoming.Single(Wire.initialize("2025-11-25")), caller).run(new Recorder());
    return session;
  }

  /** No resources; the test drives its listener. */
  private static final class Provider implements ResourceProvider {
    private final AtomicReference<Listener> listener = new AtomicReference<>();

    Listener listener() {
      return listener.get();
    }

    @Override
    public List<Resource> resources() {
      return List.of();
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      return Optional.empty();
    }

    @Override
    public AutoCloseable onChange(Listener listener) {
      this.listener.set(listener);
      return () -> this.listener.set(null);
    }
  }
}
