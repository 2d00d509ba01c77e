package io.promptd.mcp.server;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The open {@code subscriptions/listen} streams of one owner (a session, or a transport's stateless endpoint), so
 * that the owner can end them gracefully when it closes. A closed scope ends every stream added later at once.
 */
final class ListenScope {
  private final Set<Subscription> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  void add(Subscription subscription) {
    open.add(subscription);
    if (closed) {
      subscription.end(true); // never park a listen on a closed owner
    }
  }

  void remove(Subscription subscription) {
    open.remove(subscription);
  }

  /** Ends the streams open now; later ones are not affected. */
  void endAll() {
    for (Subscription s : open) {
      s.end(true);
    }
  }

  /** Ends the streams open now and every one added later. */
  void close() {
    closed = true;
    endAll();
  }
}
