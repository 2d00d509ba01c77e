package io.promptd.mcp.http.internal.session;

import io.promptd.mcp.http.internal.exchange.CallerKey;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.ServerSession;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * A legacy Streamable HTTP session: the {@link ServerSession} that ran {@code initialize}, its
 * event log, and the bookkeeping that lets idle sessions expire. A session is busy, and never
 * expires, while a request or its GET stream is open. A session opened with an access token belongs
 * to the token's subject: no other subject may use it.
 */
public final class LegacySession {
  private final String id;
  private final ServerSession session;
  private final EventLog events;
  private final @Nullable String subject;
  private final String owner;
  private final AtomicInteger busy = new AtomicInteger();
  private final SessionClock clock;
  private volatile long lastActive;
  private volatile boolean closed;
  /**
   * Replicated sessions: the state last saved to or restored from the session store, and who used
   * it last.
   */
  private volatile String storedState = "";

  private volatile Caller lastCaller = Caller.UNRESTRICTED;
  /** Signed ids: when the id is past its maximum age, and the session ends even if in use. */
  private volatile @Nullable Instant endsAt;

  /**
   * @param subject the subject of the access token that opened the session, or null without
   *     authorization
   * @param owner whose quota the session counts against (see {@link CallerKey})
   * @param clock what "idle" goes by
   */
  public LegacySession(
      String id,
      ServerSession session,
      EventLog events,
      @Nullable String subject,
      String owner,
      SessionClock clock) {
    this.clock = clock;
    this.lastActive = clock.nanoTime();
    this.id = id;
    this.session = session;
    this.events = events;
    this.subject = subject;
    this.owner = owner;
  }

  /** Whose quota the session counts against. */
  String owner() {
    return owner;
  }

  /**
   * When a request or a stream last began or ended, on the {@link SessionClock#nanoTime()} scale.
   */
  long lastActive() {
    return lastActive;
  }

  /** Whether a request from {@code subject} (null without authorization) may use this session. */
  public boolean belongsTo(@Nullable String subject) {
    return Objects.equals(this.subject, subject);
  }

  String id() {
    return id;
  }

  public ServerSession session() {
    return session;
  }

  public EventLog events() {
    return events;
  }

  /** Marks the start of a request or stream; pair with {@link #release()}. */
  public void acquire() {
    busy.incrementAndGet();
    lastActive = clock.nanoTime();
  }

  public void release() {
    lastActive = clock.nanoTime();
    busy.decrementAndGet();
  }

  /** Whether nothing has used the session for {@code idleNanos}. */
  boolean idle(long now, long idleNanos) {
    return busy.get() == 0 && !events.connected() && now - lastActive > idleNanos;
  }

  String storedState() {
    return storedState;
  }

  void storedState(String state) {
    this.storedState = state;
  }

  @Nullable
  Instant endsAt() {
    return endsAt;
  }

  void endsAt(Instant when) {
    this.endsAt = when;
  }

  Caller lastCaller() {
    return lastCaller;
  }

  void lastCaller(Caller caller) {
    this.lastCaller = caller;
  }

  /** Whether a request or a stream is using the session now. */
  boolean busy() {
    return busy.get() > 0 || events.connected();
  }

  public boolean closed() {
    return closed;
  }

  /** Ends the session and its stream. */
  void close() {
    closed = true;
    session.close();
    events.close();
  }
}
