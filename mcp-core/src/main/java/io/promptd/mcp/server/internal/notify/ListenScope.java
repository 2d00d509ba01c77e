package io.promptd.mcp.server.internal.notify;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open {@code subscriptions/listen} streams of one owner (a session, or a transport's stateless
 * endpoint), so that the owner can end them gracefully when it closes. A closed scope ends every
 * stream added later at once.
 */
public final class ListenScope {
  /** Why the streams of a closed owner end: its session or channel closed. */
  static final String CLOSED = "the session closed";
  /** Why {@link #endAll()} ends streams: the transport stops serving. */
  static final String STOPPING = "the server is shutting down";

  private final Set<Subscription> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  public void add(Subscription subscription) {
    open.add(subscription);
    if (closed) {
      subscription.end(CLOSED); // never park a listen on a closed owner
    }
  }

  public void remove(Subscription subscription) {
    open.remove(subscription);
  }

  /** Ends the streams open now; later ones are not affected. */
  public void endAll() {
    endAll(STOPPING);
  }

  private void endAll(String why) {
    for (Subscription s : open) {
      s.end(why);
    }
  }

  /** Ends the streams open now and every one added later. */
  public void close() {
    closed = true;
    endAll(CLOSED);
  }
}
