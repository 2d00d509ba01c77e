package io.promptd.store;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import org.jspecify.annotations.Nullable;

/** How the store's feed threads (the listening connection's, the library's) are stopped. */
final class Feeds {
  private static final System.Logger LOG = System.getLogger("io.promptd.store");

  private Feeds() {}

  /**
   * Closes the feed's connection (which ends a wait for notifications), interrupts its thread and
   * waits up to 10 s for it to end.
   *
   * @param what the feed, for the log
   */
  static void stop(@Nullable Connection connection, Thread feed, String what) {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException e) {
        LOG.log(Level.DEBUG, "closing the " + what + "'s connection: " + e.getMessage());
      }
    }
    feed.interrupt();
    try {
      feed.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
