package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The usage series stay bounded: prompt × version pairs past the cap, and client names, are folded.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UsageMetricsTest {
  @Test
  void pairsPastTheCapAreOtherAndClientNamesAreNormalisedAndCapped() throws Exception {
    PrometheusRegistry registry = new PrometheusRegistry();
    UsageMetrics usage = new UsageMetrics(registry);
    for (int i = 0; i < UsageMetrics.MAX_SERIES + 5; i++) {
      usage.record("p" + i, "v", "latest", "Claude Code", "rendered", Duration.ofMillis(1));
    }
    usage.record("p0", "v", "latest", null, "refused", Duration.ofMillis(1)); // a known pair
    for (int i = 0; i < UsageMetrics.MAX_CLIENTS + 3; i++) {
      usage.record("p1", "v", "latest", "client " + i, "rendered", Duration.ofMillis(1));
    }
    usage.watchDropped(() -> 7);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create()
        .write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
    Map<String, Double> samples = OperationsProcessTest.parse(out.toString(StandardCharsets.UTF_8));
    String uses = "promptd_prompt_uses_total{client=";
    assertThat(samples)
        .containsEntry(
            uses + "claude-code,label=latest,outcome=rendered,prompt=_other,version=_other}", 5.0)
        .containsEntry(uses + "claude-code,label=latest,outcome=rendered,prompt=p0,version=v}", 1.0)
        .containsEntry(uses + "other,label=latest,outcome=refused,prompt=p0,version=v}", 1.0)
        .containsEntry(uses + "client-0,label=latest,outcome=rendered,prompt=p1,version=v}", 1.0)
        .containsEntry(uses + "other,label=latest,outcome=rendered,prompt=p1,version=v}", 4.0)
        .containsEntry("promptd_usage_dropped_total", 7.0);
    assertThat(samples.keySet().stream().filter(k -> k.startsWith(uses)).count())
        .isEqualTo(UsageMetrics.MAX_SERIES + 1 + 1 + (UsageMetrics.MAX_CLIENTS - 1) + 1);
    assertThat(UsageMetrics.normalise("  Some/Client (beta) ")).isEqualTo("some-client-beta");
  }
}
