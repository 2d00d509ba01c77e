package io.promptd.library;

import io.promptd.mcp.api.Stability;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * When a library fed from elsewhere (a store, a Git remote) was first loaded: the readiness of the
 * server serving it. Completed once, never exceptionally; thread-safe.
 */
@Stability(Stability.Tier.STABLE)
public final class FirstLoad {
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  /** Not loaded yet. */
  public FirstLoad() {}

  /** Marks the first load done; later calls do nothing. */
  public void complete() {
    done.complete(null);
  }

  /** Whether the first load is done. */
  public boolean isDone() {
    return done.isDone();
  }

  /** Waits up to {@code timeout} for the first load; returns whether it is done. */
  public boolean await(Duration timeout) throws InterruptedException {
    try {
      done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      throw new IllegalStateException("never completed exceptionally", e);
    }
  }

  /** Completes with the first load; never completes exceptionally. */
  public CompletionStage<Void> stage() {
    return done.copy();
  }
}
