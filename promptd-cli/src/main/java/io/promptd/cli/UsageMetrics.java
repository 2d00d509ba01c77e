package io.promptd.cli;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Usage per version in Prometheus:
 * {@code promptd_prompt_uses_total{prompt,version,label,client,outcome}} and
 * {@code promptd_prompt_use_duration_seconds{prompt,version,label}}, with bounded label sets. At
 * most {@link #MAX_SERIES} prompt × version pairs get series of their own; the uses of any further
 * pair are counted under {@code prompt="_other", version="_other"}. A client's name is lower-cased,
 * reduced to {@code a-z 0-9 . _ -} and cut to 32 characters; at most {@link #MAX_CLIENTS} names are
 * kept, any other (and a client that gave none) is {@code other}. The client's version is left out
 * (too many values): the store's {@code prompt_usage} keeps it.
 */
final class UsageMetrics {
  /** The prompt × version pairs with series of their own. */
  static final int MAX_SERIES = 1000;
  /** The client names with series of their own. */
  static final int MAX_CLIENTS = 20;

  static final String OTHER = "_other";

  private final Set<String> pairs = ConcurrentHashMap.newKeySet();
  private final Set<String> clients = ConcurrentHashMap.newKeySet();
  private final PrometheusRegistry registry;
  private final Counter uses;
  private final Histogram durations;

  UsageMetrics(PrometheusRegistry registry) {
    this.registry = registry;
    uses = Counter.builder()
        .name("promptd_prompt_uses_total")
        .help(
            "prompts/get of a served prompt by prompt, version (12 hex digits of its file's SHA-256),"
                + " label, client name and outcome (rendered, refused, form_asked, form_declined, error)")
        .labelNames("prompt", "version", "label", "client", "outcome")
        .register(registry);
    durations = Histogram.builder()
        .name("promptd_prompt_use_duration_seconds")
        .help("Time to serve a prompts/get of a served prompt, by prompt, version and label")
        .labelNames("prompt", "version", "label")
        .classicOnly()
        .classicUpperBounds(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5)
        .register(registry);
  }

  /** Adds {@code promptd_usage_dropped_total}, the uses the store's writer dropped. */
  void watchDropped(LongSupplier dropped) {
    CounterWithCallback.builder()
        .name("promptd_usage_dropped_total")
        .help("Uses not written to the store: its in-memory aggregate was full (the database away)")
        .callback(cb -> cb.call((double) dropped.getAsLong()))
        .register(registry);
  }

  /** Counts one use. */
  void record(
      String prompt,
      String version,
      String label,
      @Nullable String client,
      String outcome,
      Duration duration) {
    String pair = prompt + '\u0000' + version;
    // Checked before adding: a burst of new pairs from many threads may pass the cap by a few.
    if (!pairs.contains(pair)) {
      if (pairs.size() < MAX_SERIES) {
        pairs.add(pair);
      } else {
        prompt = OTHER;
        version = OTHER;
      }
    }
    uses.labelValues(prompt, version, label, client(client), outcome).inc();
    durations.labelValues(prompt, version, label).observe(duration.toNanos() / 1e9);
  }

  /** A client's name as a bounded label value. */
  String client(@Nullable String name) {
    String n = normalise(name);
    if (n.isEmpty()) {
      return "other";
    }
    if (!clients.contains(n)) {
      if (clients.size() >= MAX_CLIENTS) {
        return "other";
      }
      clients.add(n);
    }
    return n;
  }

  static String normalise(@Nullable String name) {
    if (name == null) {
      return "";
    }
    String n = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-");
    n = n.replaceAll("^-+|-+$", "");
    return n.length() <= 32 ? n : n.substring(0, 32);
  }
}
