package io.promptd.javasdk;

import java.lang.System.Logger.Level;
import java.time.Duration;
import reactor.core.publisher.Mono;

/**
 * Changes made to an official-SDK server on promptd's behalf: waited for, a failure logged, never
 * thrown.
 */
final class SdkCalls {
  private static final System.Logger LOG = System.getLogger("io.promptd.javasdk");
  private static final Duration SERVER_CALL = Duration.ofSeconds(30);

  private SdkCalls() {}

  /** Waits up to 30 s for {@code change}; logs a failure as a warning naming {@code what}. */
  static void call(Mono<Void> change, String what) {
    try {
      change.block(SERVER_CALL);
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "promptd-java-sdk: " + what + " on the SDK server failed: " + e.getMessage());
    }
  }
}
