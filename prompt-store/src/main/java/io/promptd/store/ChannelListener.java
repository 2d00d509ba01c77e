package io.promptd.store;

import io.promptd.mcp.api.Stability;

/**
 * What a listener of one of the store's {@code NOTIFY} channels is told (see
 * {@code StoreDatabase.listen}), on the listening connection's thread, which it must not hold long:
 * every notification of every channel waits for it. A listener that throws is logged and the others
 * are still told.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public interface ChannelListener {
  /**
   * The listening connection now listens on the channel: for the first time, or {@code again} after
   * it was lost, in which case the notifications sent meanwhile are lost too and the listener
   * catches up.
   */
  void listening(boolean again);

  /** A notification on the channel, with its payload (empty when it had none). */
  void notified(String payload);

  /**
   * Called every 5 s while listening: a chance to do what waited for the database, or to look for
   * what no notification announced.
   */
  default void quiet() {}

  /**
   * The listening connection was lost, or could not be opened, because of {@code cause}; it is
   * tried again in {@code retryMillis}.
   */
  default void lost(Exception cause, long retryMillis) {}
}
