package io.promptd.mcp.http.internal.session;

import io.promptd.mcp.http.SessionStore;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.LegacySessionState;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StreamQueue;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Legacy sessions that any replica can serve: the id is a signed {@linkplain SessionTokens token}
 * that says what {@code initialize} established; what changes later (log level, subscriptions), the
 * last use and the end are in the {@link SessionStore}. A replica that meets a session it does not
 * hold rebuilds it from the two, and keeps it (with its own event log) until it idles out locally.
 *
 * <p>With a shared store ({@code authoritative}), a session missing from it is unknown: deleted,
 * expired or never opened. With the transport's own in-memory store, another replica's session is
 * rebuilt from its id alone, so that requests still go anywhere; DELETE and the idle timeout then
 * hold only on the replica that saw them.
 *
 * <p>An id lives at most {@code maxAge} from the issue time it carries. An entry stays in the store
 * (ended, or live but idle past the timeout, which is as dead) until that age has passed for its
 * id, and only then is removed: a deleted or expired id never comes back as a session rebuilt from
 * the id alone.
 */
public final class SharedSessions implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");
  private static final int EVENT_LOG_CAPACITY = 256;

  private final McpServer server;
  private final SessionRegistry registry;
  private final SessionTokens tokens;
  private final SessionStore store;
  private final boolean authoritative;
  private final Duration idle;
  private final Duration maxAge;
  private final StreamQueue.Limits limits;
  private final LongSupplier catalogVersion;
  private final AutoCloseable listening;

  public SharedSessions(
      McpServer server,
      SessionRegistry registry,
      SessionTokens tokens,
      SessionStore store,
      boolean authoritative,
      Duration idle,
      Duration maxAge,
      StreamQueue.Limits limits,
      LongSupplier catalogVersion) {
    this.server = server;
    this.registry = registry;
    this.tokens = tokens;
    this.store = store;
    this.authoritative = authoritative;
    this.idle = idle;
    this.maxAge = maxAge;
    this.limits = limits;
    this.catalogVersion = catalogVersion;
    this.listening = store.onChange(this::changed);
    registry.afterSweep(this::sweep);
    // Ended everywhere, as an expired one is: a session made way for its owner's next one.
    registry.onEvict(ls -> store.end(ls.id()));
  }

  /** A new session's key, which names it in the store. */
  public String newKey() {
    return tokens.newKey();
  }

  /**
   * A session's event log here; its tag is its own (random), so that another replica's event ids
   * are foreign.
   */
  public EventLog newLog() {
    return new EventLog(
        EVENT_LOG_CAPACITY, limits, new EventLog.Tagging(tokens.newKey(), catalogVersion));
  }

  /**
   * Records a session whose {@code initialize} succeeded, and returns its id; null when it does not
   * fit in {@code owner}'s quota (see {@link SessionRegistry#add}).
   */
  @Nullable
  public String opened(
      String key, ServerSession session, EventLog events, Caller caller, String owner) {
    LegacySessionState state = session
        .legacyState()
        .orElseThrow(() ->
            new IllegalStateException("SharedSessions.opened: the session is not initialized"));
    Instant issued = registry.clock().now().truncatedTo(ChronoUnit.SECONDS); // as the id says
    String id = tokens.issue(new SessionTokens.Token(
        key,
        state.version(),
        state.clientCapabilities(),
        state.clientInfo(),
        caller.subject(),
        issued));
    String stored = encode(state);
    LegacySession ls =
        new LegacySession(key, session, events, caller.subject(), owner, registry.clock());
    ls.storedState(stored);
    ls.lastCaller(caller);
    ls.endsAt(issued.plus(maxAge));
    if (!registry.add(ls)) {
      return null;
    }
    store.create(key, new SessionStore.Entry(stored, registry.clock().now(), false));
    return id;
  }

  /**
   * The live session {@code id} names, held here (rebuilt when this replica has not seen it), or
   * null when it is not one: forged, another secret's, another subject's, ended, expired or older
   * than the maximum age. A full registry gives {@code 503} instead: {@code full[0]} is set;
   * {@code full[1]} when {@code owner}'s quota is full of sessions in use.
   */
  @Nullable
  public LegacySession resolve(String id, Caller caller, String owner, boolean[] full) {
    SessionTokens.Token t = tokens.verify(id);
    if (t == null || !Objects.equals(t.subject(), caller.subject())) {
      return null;
    }
    Instant now = registry.clock().now();
    if (tooOld(t, now)) {
      store.end(t.key());
      registry.remove(t.key());
      return null;
    }
    Optional<SessionStore.Entry> found = store.get(t.key());
    SessionStore.Entry e;
    if (found.isPresent()) {
      e = found.get();
    } else if (authoritative) {
      return null;
    } else {
      e = new SessionStore.Entry(encode(initial(t)), now, false);
      store.create(t.key(), e);
    }
    if (e.ended() || e.lastActive().plus(idle).isBefore(now)) {
      if (!e.ended()) {
        store.end(t.key());
      }
      registry.remove(t.key());
      return null;
    }
    if (Duration.between(e.lastActive(), now).compareTo(idle.dividedBy(8)) > 0) {
      store.touch(t.key(), now);
    }
    LegacySession ls = registry.get(t.key());
    if (ls == null) {
      if (!registry.makeRoom(owner)) {
        full[1] = true;
        return null;
      }
      if (!registry.hasRoom()) {
        full[0] = true;
        return null;
      }
      EventLog events = newLog();
      ServerSession session = server.openSession(events::publish);
      session.audience("session:" + t.key());
      session.restore(decode(t, e.state()), caller);
      LegacySession fresh =
          new LegacySession(t.key(), session, events, t.subject(), owner, registry.clock());
      fresh.storedState(e.state());
      fresh.endsAt(t.issued().plus(maxAge));
      ls = registry.addIfAbsent(fresh);
      if (ls != fresh) {
        fresh.close(); // another request rebuilt it first, or the owner's quota is full
      }
      if (ls == null) {
        full[1] = true;
        return null;
      }
    } else if (!e.state().equals(ls.storedState())) {
      ls.session().restore(decode(t, e.state()), caller);
      ls.storedState(e.state());
    }
    ls.lastCaller(caller);
    return ls;
  }

  /** Saves what a request changed (a log level, a subscription) for the other replicas. */
  public void saveChanges(LegacySession ls) {
    Optional<LegacySessionState> state = ls.session().legacyState();
    if (state.isEmpty()) {
      return;
    }
    String now = encode(state.get());
    if (!now.equals(ls.storedState())) {
      ls.storedState(now);
      store.update(ls.id(), now, registry.clock().now());
    }
  }

  /**
   * DELETE: ends the session everywhere; false when {@code id} names no live session of this
   * caller.
   */
  public boolean delete(String id, Caller caller) {
    SessionTokens.Token t = tokens.verify(id);
    if (t == null || !Objects.equals(t.subject(), caller.subject())) {
      return false;
    }
    if (tooOld(t, registry.clock().now())) {
      registry.remove(t.key());
      return false;
    }
    boolean ended = store.end(t.key());
    if (!ended && !authoritative && store.get(t.key()).isEmpty()) {
      // Another replica's session, never seen here: a tombstone keeps it from being rebuilt here.
      store.create(t.key(), new SessionStore.Entry("", registry.clock().now(), true));
      ended = true;
    }
    registry.remove(t.key());
    return ended;
  }

  /** A session changed in the store, maybe by another replica: apply it to the copy held here. */
  private void changed(String key) {
    LegacySession ls = registry.get(key);
    if (ls == null) {
      return;
    }
    Optional<SessionStore.Entry> e = store.get(key);
    if (e.isEmpty() || e.get().ended()) {
      registry.remove(key);
      return;
    }
    Optional<LegacySessionState> current = ls.session().legacyState();
    String state = e.get().state();
    if (current.isPresent() && !state.equals(ls.storedState())) {
      ls.session().restore(decode(current.get(), state), ls.lastCaller());
      ls.storedState(state);
    }
  }

  /** Whether {@code t}'s id is past the maximum age: dead, whatever the store says. */
  private boolean tooOld(SessionTokens.Token t, Instant now) {
    return t.issued().plus(maxAge).isBefore(now);
  }

  /**
   * From the registry's sweeper: sessions in use here stay alive in the store. Entries go once
   * their ids are past the maximum age (an entry was last used after its id was issued), never
   * sooner: until then an entry, ended or idle past the timeout, is what keeps its id dead.
   */
  private void sweep(Collection<LegacySession> held) {
    Instant now = registry.clock().now();
    for (LegacySession ls : held) {
      Instant endsAt = ls.endsAt();
      if (endsAt != null && endsAt.isBefore(now)) {
        store.end(ls.id()); // past the maximum age: its stream ends too, used or not
        registry.remove(ls.id());
      } else if (ls.busy()) {
        store.touch(ls.id(), now);
      }
    }
    Duration keep = maxAge.compareTo(idle.multipliedBy(2)) > 0 ? maxAge : idle.multipliedBy(2);
    int expired = store.expire(now.minus(keep));
    if (expired > 0) {
      LOG.log(Level.DEBUG, "removed {0} long-idle session entries", expired);
    }
  }

  @Override
  public void close() {
    try {
      listening.close();
    } catch (Exception e) {
      LOG.log(Level.WARNING, "could not stop listening to the session store", e);
    }
  }

  private static LegacySessionState initial(SessionTokens.Token t) {
    return new LegacySessionState(
        t.version(), t.capabilities(), t.clientInfo(), LoggingLevel.INFO, Set.of());
  }

  private static LegacySessionState decode(SessionTokens.Token t, String state) {
    return decode(initial(t), state);
  }

  /**
   * {@code base} with the log level and subscriptions that {@code state} holds; unreadable parts
   * leave base's.
   */
  private static LegacySessionState decode(LegacySessionState base, String state) {
    LoggingLevel level = base.logLevel();
    Set<String> uris = new LinkedHashSet<>();
    try {
      if (!state.isEmpty() && JsonCodec.parse(state) instanceof JsonObject o) {
        level = o.string("l").flatMap(LoggingLevel::of).orElse(level);
        for (Json j : o.array("r").map(JsonArray::elements).orElse(List.of())) {
          if (j instanceof JsonString s) {
            uris.add(s.value());
          }
        }
      }
    } catch (JsonException e) {
      LOG.log(Level.WARNING, "ignoring an unreadable session state in the session store");
    }
    return new LegacySessionState(
        base.version(), base.clientCapabilities(), base.clientInfo(), level, uris);
  }

  private static String encode(LegacySessionState s) {
    List<String> uris = new ArrayList<>(s.subscriptions());
    uris.sort(null);
    return JsonCodec.write(JsonObject.builder()
        .put("l", s.logLevel().id())
        .put("r", JsonArray.ofStrings(uris))
        .build());
  }
}
