package io.promptd.mcp.http;

import io.promptd.mcp.spi.ServerSession;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A legacy Streamable HTTP session: the {@link ServerSession} that ran {@code initialize}, its event log, and the
 * bookkeeping that lets idle sessions expire. A session is busy, and never expires, while a request or its GET stream
 * is open.
 */
final class LegacySession {
  private final String id;
  private final ServerSession session;
  private final EventLog events;
  private final AtomicInteger busy = new AtomicInteger();
  private volatile long lastActive = System.nanoTime();
  private volatile boolean closed;

  LegacySession(String id, ServerSession session, EventLog events) {
    this.id = id;
    this.session = session;
    this.events = events;
  }

  String id() {
    return id;
  }

  ServerSession session() {
    return session;
  }

  EventLog events() {
    return events;
  }

  /** Marks the start of a request or stream; pair with {@link #release()}. */
  void acquire() {
    busy.incrementAndGet();
    lastActive = System.nanoTime();
  }

  void release() {
    lastActive = System.nanoTime();
    busy.decrementAndGet();
  }

  /** Whether nothing has used the session for {@code idleNanos}. */
  boolean idle(long now, long idleNanos) {
    return busy.get() == 0 && !events.connected() && now - lastActive > idleNanos;
  }

  boolean closed() {
    return closed;
  }

  /** Ends the session and its stream. */
  void close() {
    closed = true;
    session.close();
    events.close();
  }
}
