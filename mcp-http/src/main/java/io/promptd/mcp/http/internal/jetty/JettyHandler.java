package io.promptd.mcp.http.internal.jetty;

import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.Route;
import io.promptd.mcp.http.internal.exchange.Router;
import io.promptd.mcp.http.internal.exchange.Runner;
import io.promptd.mcp.http.internal.exchange.Telemetry;
import io.promptd.mcp.http.internal.exchange.Work;
import io.promptd.mcp.http.internal.mcp.McpEndpoint;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.jspecify.annotations.Nullable;

/**
 * The Jetty handler under both listeners: wraps each request in an {@link Exchange}, finds its
 * {@link Route} in the listener's {@link Router}, and runs it. A POST to the MCP endpoint whose
 * body has arrived and whose call cannot block (the core decides) is served on the thread that
 * parsed it; everything else (streams, bodies still arriving, calls that may block, every other
 * route) on its own virtual thread with plain blocking code. Requests that arrive during a start's
 * hold wait for it here, and a stop drains them here.
 */
public final class JettyHandler extends Handler.Abstract {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");
  /** The name of the admin listener's connector, by which its requests are told apart. */
  static final String ADMIN_CONNECTOR = "admin";

  private final Router router;
  private final McpEndpoint endpoint;
  private final @Nullable Router admin;
  private final Gate gate;
  private final Telemetry telemetry;
  private final ExecutorService workers = Executors.newThreadPerTaskExecutor(
      Thread.ofVirtual().name("promptd-http-", 0).factory());
  private final @Nullable Hold hold;
  private final HeadDeadline deadline;
  /**
   * When the hold ends at the latest ({@link System#nanoTime()}), set by {@link #opening} (before
   * the gate opens).
   */
  private volatile long holdDeadline;
  /**
   * Runs work that cannot block right here, on the parsing thread; work that may block on a virtual
   * thread.
   */
  private final Runner inline = (mayBlock, work) -> {
    if (!mayBlock) {
      work.run();
      return;
    }
    try {
      workers.execute(work);
    } catch (RejectedExecutionException e) {
      work.run(); // shutting down: finish it here rather than drop it
    }
  };

  /**
   * Requests that arrive before {@code opened} completes wait for it, for at most {@code atMost}
   * from the start.
   *
   * @param opened completes when the server is ready to answer
   * @param atMost how long a start may hold requests
   */
  public record Hold(CompletableFuture<?> opened, Duration atMost) {}

  /**
   * @param router the MCP port's routes
   * @param endpoint the MCP endpoint's route, which may serve a POST inline
   * @param admin the admin listener's routes, or null without one
   * @param deadline told when each request starts and ends, so that no deadline cuts a request
   *     being served
   */
  public JettyHandler(
      Router router,
      McpEndpoint endpoint,
      @Nullable Router admin,
      Gate gate,
      Telemetry telemetry,
      @Nullable Hold hold,
      HeadDeadline deadline) {
    // handle() only hands the exchange to a virtual thread: saying so lets Jetty call it on the
    // thread that parsed the request, instead of first dispatching it to another thread (two
    // hand-offs per request).
    super(InvocationType.NON_BLOCKING);
    this.router = router;
    this.endpoint = endpoint;
    this.admin = admin;
    this.gate = gate;
    this.telemetry = telemetry;
    this.hold = hold;
    this.deadline = deadline;
  }

  /** Starts the hold's clock; called just before the gate opens. */
  public void opening() {
    Hold h = hold;
    if (h != null) {
      holdDeadline = System.nanoTime() + h.atMost().toNanos();
    }
  }

  @Override
  public boolean handle(Request request, Response response, Callback jettyCallback) {
    Connection connection = request.getConnectionMetaData().getConnection();
    deadline.started(connection);
    Callback callback = new Callback() {
      @Override
      public void succeeded() {
        deadline.ended(connection); // first: the next request may start as soon as Jetty is told
        jettyCallback.succeeded();
      }

      @Override
      public void failed(Throwable cause) {
        deadline.ended(connection);
        jettyCallback.failed(cause);
      }

      @Override
      public InvocationType getInvocationType() {
        return jettyCallback.getInvocationType();
      }
    };
    Router adminRouter = admin;
    boolean toAdmin = adminRouter != null
        && ADMIN_CONNECTOR.equals(request.getConnectionMetaData().getConnector().getName());
    Router routes = toAdmin && adminRouter != null ? adminRouter : router;
    // The admin listener's requests (probes, metrics) are no MCP traffic: they raise no request
    // event.
    Exchange ex =
        new Exchange(new JettyIo(request, response, callback, deadline), telemetry, toAdmin);
    try {
      Route route = routes.route(ex.path());
      if (!toAdmin && held(route)) {
        workers.execute(() -> serve(ex, () -> {
          awaitOpening();
          route.serve(ex);
        }));
      } else if (toAdmin || !servedInline(ex, route)) {
        workers.execute(() -> serve(ex, () -> route.serve(ex)));
      }
    } catch (RejectedExecutionException e) {
      ex.refuse(503, "Service unavailable: the server is shutting down");
    } catch (RuntimeException e) {
      failed(ex, e);
    } catch (Error e) {
      failed(ex, e); // as in serve: that request fails, the server goes on
      if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
        throw e;
      }
    }
    return true;
  }

  /**
   * Serves a POST to the MCP endpoint on the thread that parsed it when that cannot block: its body
   * has arrived whole, and the core says its call cannot block (answered from memory) — no hand-off
   * to another thread, and the answer is written without waiting. Returns false, having done
   * nothing that matters, when the exchange must go to a virtual thread.
   */
  private boolean servedInline(Exchange ex, Route route) {
    if (route != endpoint
        || !ex.method().equals("POST")
        || gate.stopping()
        || gate.authMayBlock()) {
      // With OAuth, checking a token may fetch the issuer's keys: a virtual thread's work
      return false;
    }
    endpoint.postInline(ex, inline, work -> workers.execute(() -> serve(ex, work)));
    return true;
  }

  /**
   * Whether {@code route} must wait for the start's hold: not a probe, and the hold neither over
   * nor timed out.
   */
  private boolean held(Route route) {
    Hold h = hold;
    // the gate opens after holdDeadline is set: a started handler reads the deadline it was given
    return h != null
        && gate.opened()
        && !h.opened().isDone()
        && route.held()
        && System.nanoTime() - holdDeadline < 0;
  }

  /** Waits until the hold is over: its future completed, or its time is up. */
  private void awaitOpening() throws InterruptedException {
    Hold h = hold;
    long left = holdDeadline - System.nanoTime();
    if (h == null || left <= 0) {
      return;
    }
    try {
      h.opened().get(left, TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException | CancellationException e) {
      // over either way: served as things are
    }
  }

  /** From now on every new request gets 503. */
  public void stopAccepting() {
    gate.close();
    workers.shutdown();
  }

  /**
   * Waits up to {@code grace} for the requests in flight, running {@code endStreams} now and then
   * so that a stream opened just before {@link #stopAccepting()} is ended too; then interrupts
   * whatever is left.
   *
   * @return whether everything finished in time
   */
  public boolean drain(Duration grace, Runnable endStreams) throws InterruptedException {
    long deadline = System.nanoTime() + grace.toNanos();
    do {
      endStreams.run();
      if (workers.awaitTermination(50, TimeUnit.MILLISECONDS)) {
        return true;
      }
    } while (System.nanoTime() < deadline);
    workers.shutdownNow();
    return false;
  }

  private static void serve(Exchange ex, Work work) {
    try {
      work.run();
    } catch (InterruptedException e) {
      ex.fail(e);
    } catch (IOException | RuntimeException e) {
      failed(ex, e);
    } catch (Error e) {
      // A request's stack overflowing, a handler built against other classes, a failed assertion:
      // that request fails, the server goes on. The JVM running out of something is answered too,
      // and then passed on.
      failed(ex, e);
      if (e instanceof VirtualMachineError && !(e instanceof StackOverflowError)) {
        throw e;
      }
    }
  }

  private static void failed(Exchange ex, Throwable e) {
    LOG.log(Level.WARNING, "HTTP " + ex.method() + " failed", e);
    if (ex.committed()) {
      ex.fail(e);
    } else {
      ex.refuse(500, "Internal error"); // the details stay in the log
    }
  }
}
