package io.promptd.store;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The store database's one listening connection and the thread that owns it: {@code LISTEN} on
 * every channel a listener asked for, each notification handed to the listeners of its channel, a
 * check of the connection when nothing was heard for 5 s, and a reconnect with backoff when it is
 * lost.
 */
final class Listening {
  private static final System.Logger LOG = System.getLogger("io.promptd.store");
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  /**
   * How often listeners are told it is quiet, and how long without a notification before the
   * connection is checked.
   */
  private static final long QUIET_NANOS = TimeUnit.SECONDS.toNanos(5);
  /**
   * How long one wait for notifications lasts. Only this thread uses the connection (the driver
   * would make another one wait out the whole wait), so a channel asked for while it waits is
   * listened on after it.
   */
  private static final int SLICE_MILLIS = 250;

  private final StoreUrl url;
  private final Schema schema;
  private final List<Registration> registrations = new CopyOnWriteArrayList<>();
  private final Object lock = new Object();
  private @Nullable Thread thread; // guarded by lock
  private volatile boolean closed;
  private volatile @Nullable Connection connection;

  Listening(StoreUrl url, Schema schema) {
    this.url = url;
    this.schema = schema;
  }

  /** One listener of one channel. */
  private static final class Registration {
    final String channel;
    final ChannelListener listener;
    /** Whether the current connection listens for it and told it so. */
    volatile boolean subscribed;
    /**
     * Whether a connection ever did: the next one tells it {@code again}. Only the thread uses it.
     */
    boolean before;

    Registration(String channel, ChannelListener listener) {
      this.channel = channel;
      this.listener = listener;
    }
  }

  AutoCloseable add(String channel, ChannelListener listener) {
    Registration r = new Registration(channel, listener);
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("the store database " + url + " is closed");
      }
      registrations.add(r);
      if (thread == null) {
        thread = Thread.ofVirtual().name("promptd-store-listener").start(this::run);
      }
    }
    return () -> registrations.remove(r);
  }

  /**
   * Closes the connection, which ends a wait for notifications, and waits for the thread to end.
   */
  void stop() {
    Thread t;
    synchronized (lock) {
      closed = true;
      t = thread;
    }
    if (t != null) {
      Feeds.stop(connection, t, "store listener");
    }
  }

  private void run() {
    long backoff = 100;
    while (!closed) {
      try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.credentials())) {
        connection = c;
        // A replica may start before anyone published: the schema it reads must exist. Flyway
        // locks, so replicas starting together migrate once.
        schema.migrate(c);
        Set<String> listened = new HashSet<>();
        subscribe(c, listened);
        backoff = 100;
        PGConnection pg = c.unwrap(PGConnection.class);
        long lastQuiet = System.nanoTime();
        boolean heard = false;
        while (!closed) {
          PGNotification[] got = pg.getNotifications(SLICE_MILLIS);
          if (got != null) {
            for (PGNotification n : got) {
              heard = true;
              dispatch(n.getName(), n.getParameter());
            }
          }
          subscribe(c, listened);
          if (System.nanoTime() - lastQuiet >= QUIET_NANOS) {
            if (!heard && !c.isValid(2)) {
              throw new SQLException("the listening connection is no longer valid");
            }
            heard = false;
            lastQuiet = System.nanoTime();
            for (Registration r : registrations) {
              if (r.subscribed) {
                tell(r, r.listener::quiet);
              }
            }
          }
        }
      } catch (SQLException | StoreException | RuntimeException e) {
        registrations.forEach(r -> r.subscribed = false);
        if (closed) {
          break;
        }
        long retry = backoff;
        registrations.forEach(r -> tell(r, () -> r.listener.lost(e, retry)));
        try {
          Thread.sleep(backoff);
        } catch (InterruptedException ie) {
          break;
        }
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
      } finally {
        connection = null;
      }
    }
  }

  /** Listens on the channels of the listeners not told yet, then tells them. */
  private void subscribe(Connection c, Set<String> listened) throws SQLException {
    for (Registration r : registrations) {
      if (r.subscribed) {
        continue;
      }
      if (listened.add(r.channel)) {
        try (Statement s = c.createStatement()) {
          s.execute("LISTEN " + r.channel);
        }
      }
      r.subscribed = true;
      boolean again = r.before;
      r.before = true;
      tell(r, () -> r.listener.listening(again));
    }
  }

  private void dispatch(String channel, String payload) {
    for (Registration r : registrations) {
      if (r.subscribed && r.channel.equals(channel)) {
        tell(r, () -> r.listener.notified(payload));
      }
    }
  }

  private static void tell(Registration r, Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "a listener of the store's channel " + r.channel + " failed", e);
    }
  }
}
