package io.promptd.mcp.http;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.http.internal.session.MemorySessionStore;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Where the changing part of legacy sessions lives, shared by every replica that serves them: what
 * {@code logging/setLevel} and {@code resources/subscribe} changed, when each session was last used
 * (for the idle timeout), and which sessions ended (DELETE or expiry). What a session cannot change
 * is in its id, a signed token (see {@link HttpTransportBuilder#sessionSecret(byte[])}). Sessions
 * are named by a random key taken from their id.
 *
 * <p>{@link #inMemory()} keeps it in one process: a stand-in for a shared store (such as a
 * PostgreSQL table) when the replicas run in one JVM, as in tests. Implementations must be
 * thread-safe, quick and must not throw for a missing key; every method may be called on a
 * request's thread.
 */
@Stability(Stability.Tier.STABLE)
public interface SessionStore {
  /**
   * One session's entry.
   *
   * @param state what the session changed, as text the transport writes and reads back unchanged (a
   *     few hundred characters: the log level and subscribed URIs)
   * @param lastActive when a request or an open stream last used the session
   * @param ended whether the session was deleted or expired; an ended entry is never live again
   */
  record Entry(String state, Instant lastActive, boolean ended) {
    /** Checks the fields. */
    public Entry {
      requireNonNull(state, "state");
      requireNonNull(lastActive, "lastActive");
    }
  }

  /**
   * The entry for {@code key}, or empty when there is none (never created, or removed by
   * {@link #expire}).
   */
  Optional<Entry> get(String key);

  /** Creates the entry for {@code key} unless there is one already; returns whether it did. */
  boolean create(String key, Entry entry);

  /**
   * Updates a live entry: its state (unless {@code state} is null) and its last use. Returns false,
   * changing nothing, when the entry is missing or ended.
   */
  boolean update(String key, @Nullable String state, Instant lastActive);

  /** Records a use of a live entry; false when it is missing or ended. */
  boolean touch(String key, Instant lastActive);

  /** Ends a live entry; returns false when it was missing or ended already. */
  boolean end(String key);

  /**
   * Removes every entry, live or ended, last used before {@code cutoff}; returns how many. The
   * transport's cutoff is the {@linkplain HttpTransportBuilder#sessionMaxAge maximum age} ago:
   * until then an ended entry is what keeps a deleted session's id dead.
   */
  int expire(Instant cutoff);

  /**
   * Calls {@code listener} with a session's key after its entry was updated or ended, in this
   * process or (for a shared store that can tell) another one, so that a replica holding the
   * session applies the change at once (a new log level, an ended stream). The default tells
   * nothing: replicas then apply a change at the session's next request to them.
   *
   * @return closing it removes the listener
   */
  default AutoCloseable onChange(Consumer<String> listener) {
    requireNonNull(listener, "listener");
    return () -> {};
  }

  /** A store in this process's memory. */
  static SessionStore inMemory() {
    return new MemorySessionStore();
  }
}
