package io.promptd.cli;

import io.promptd.library.Library;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.PromptUse;
import io.promptd.store.StoreUsage;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Counts each {@code prompts/get} of a served prompt by its version ({@link Library#promptVersion},
 * or for an A/B split the version the caller got, {@link PromptUse#variant}), the label served
 * ({@code latest} without {@code --label}), the client and the outcome: in Prometheus when there is
 * an admin port ({@link UsageMetrics}), and in the store's {@code prompt_usage} with {@code serve
 * --store} ({@link StoreUsage}). Runs on the request's thread: looks up in memory and adds to
 * counters, never waits.
 */
final class PromptUsage implements Consumer<PromptUse> {
  private final Library library;
  private final String label;
  private final @Nullable StoreUsage store;
  private volatile @Nullable UsageMetrics metrics;

  PromptUsage(Library library, @Nullable String label, @Nullable StoreUsage store) {
    this.library = library;
    this.label = label == null ? "latest" : label;
    this.store = store;
  }

  /** Counts in {@code metrics} from now on, and shows the store's dropped uses there. */
  void metrics(UsageMetrics metrics) {
    StoreUsage s = store;
    if (s != null) {
      metrics.watchDropped(s::dropped);
    }
    this.metrics = metrics;
  }

  @Override
  public void accept(PromptUse use) {
    String variant = use.variant();
    String version =
        variant != null ? variant : library.promptVersion(use.prompt()).orElse("unknown");
    String outcome = use.outcome().label();
    Implementation client = use.client();
    UsageMetrics m = metrics;
    if (m != null) {
      m.record(
          use.prompt(),
          version,
          label,
          client == null ? null : client.name(),
          outcome,
          use.duration());
    }
    StoreUsage s = store;
    if (s != null) {
      s.add(
          new StoreUsage.Use(
              use.prompt(),
              version,
              label,
              client == null ? "" : client.name(),
              client == null ? "" : client.version(),
              outcome),
          use.duration());
    }
  }
}
