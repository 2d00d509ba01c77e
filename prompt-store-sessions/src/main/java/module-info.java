/**
 * Legacy HTTP sessions kept in promptd's prompt store, so that every replica serving a store sees
 * the same sessions: the HTTP transport's {@code SessionStore} on the store's
 * {@link io.promptd.store.StoreDatabase}. Its own module so that the store itself ({@code promptd
 * publish}) does not depend on the HTTP transport.
 */
module io.promptd.store.sessions {
  requires static transitive org.jspecify;
  requires transitive io.promptd.store;
  requires transitive io.promptd.mcp.http;

  exports io.promptd.store.sessions;
}
