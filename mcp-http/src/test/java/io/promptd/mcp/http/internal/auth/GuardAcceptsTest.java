package io.promptd.mcp.http.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code Accept} header matching: exact types, {@code major/*}, {@code *}{@code /*}, case, spaces
 * and parameters.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class GuardAcceptsTest {
  private static final String SSE = "text/event-stream";
  private static final String JSON = "application/json";

  @Test
  void admitsTheTypeItsMajorWildcardAndAnyCaseSpacingOrParameters() {
    assertThat(Guard.accepts(List.of(), SSE)).isTrue();
    assertThat(Guard.accepts(List.of("application/json, text/event-stream"), SSE))
        .isTrue();
    assertThat(Guard.accepts(List.of("application/json, text/event-stream"), JSON))
        .isTrue();
    assertThat(Guard.accepts(List.of("TEXT/Event-Stream;q=0.9"), SSE)).isTrue();
    assertThat(Guard.accepts(List.of("  text/event-stream  ; charset=utf-8"), SSE))
        .isTrue();
    assertThat(Guard.accepts(List.of("text/*;q=1"), SSE)).isTrue();
    assertThat(Guard.accepts(List.of("Application/*"), JSON)).isTrue();
    assertThat(Guard.accepts(List.of("*/*"), JSON)).isTrue();
    assertThat(Guard.accepts(List.of("text/html", "*/*;q=0.1"), JSON)).isTrue();
  }

  @Test
  void refusesOtherTypesAndMalformedRanges() {
    assertThat(Guard.accepts(List.of("application/json"), SSE)).isFalse();
    assertThat(Guard.accepts(List.of("text/plain, text/html"), SSE)).isFalse();
    assertThat(Guard.accepts(List.of("text/event-streams"), SSE)).isFalse();
    assertThat(Guard.accepts(List.of("text"), SSE)).isFalse();
    assertThat(Guard.accepts(List.of(""), SSE)).isFalse();
    assertThat(Guard.accepts(List.of(",,;"), SSE)).isFalse();
    assertThat(Guard.accepts(List.of("text/"), SSE)).isFalse();
    assertThat(Guard.accepts(List.of("application/*"), SSE)).isFalse();
    assertThat(Guard.accepts(List.of("*/json"), JSON)).isFalse();
  }
}
