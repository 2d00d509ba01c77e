package io.promptd.mcp.http.internal.exchange;

import io.promptd.mcp.http.RequestEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * Makes the {@link RequestEvent} of a finished request. Only the API package can (the event's
 * builder is its own), so the transport hands one to its {@link Telemetry}.
 */
@FunctionalInterface
public interface EventFactory {
  /**
   * The event of a request that arrived at {@code time} by {@code transport}, as its builder would
   * make it.
   */
  RequestEvent event(
      Instant time,
      RequestEvent.Transport transport,
      String httpMethod,
      RequestEvent.Era era,
      @Nullable String method,
      @Nullable String prompt,
      RequestEvent.Outcome outcome,
      int status,
      OptionalInt errorCode,
      Duration duration,
      @Nullable String subject);
}
