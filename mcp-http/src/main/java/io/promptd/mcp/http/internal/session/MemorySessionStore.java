package io.promptd.mcp.http.internal.session;

import io.promptd.mcp.http.SessionStore;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** A {@link SessionStore} in one process's memory; its listeners hear of every update and end. */
public final class MemorySessionStore implements SessionStore {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final Set<Consumer<String>> listeners = new CopyOnWriteArraySet<>();

  @Override
  public Optional<Entry> get(String key) {
    return Optional.ofNullable(entries.get(key));
  }

  @Override
  public boolean create(String key, Entry entry) {
    return entries.putIfAbsent(key, entry) == null;
  }

  @Override
  public boolean update(String key, @Nullable String state, Instant lastActive) {
    boolean[] done = {false};
    entries.computeIfPresent(key, (k, e) -> {
      if (e.ended()) {
        return e;
      }
      done[0] = true;
      return new Entry(state == null ? e.state() : state, lastActive, false);
    });
    if (done[0] && state != null) {
      changed(key);
    }
    return done[0];
  }

  @Override
  public boolean touch(String key, Instant lastActive) {
    return update(key, null, lastActive);
  }

  @Override
  public boolean end(String key) {
    boolean[] done = {false};
    entries.computeIfPresent(key, (k, e) -> {
      done[0] = !e.ended();
      return new Entry(e.state(), e.lastActive(), true);
    });
    if (done[0]) {
      changed(key);
    }
    return done[0];
  }

  @Override
  public int expire(Instant cutoff) {
    int before = entries.size();
    entries.values().removeIf(e -> e.lastActive().isBefore(cutoff));
    return Math.max(0, before - entries.size());
  }

  @Override
  public AutoCloseable onChange(Consumer<String> listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  private void changed(String key) {
    for (Consumer<String> l : listeners) {
      try {
        l.accept(key);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "a session store listener failed", e);
      }
    }
  }
}
