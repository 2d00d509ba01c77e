package io.promptd.mcp.http;

import io.promptd.mcp.http.testing.SessionStoreContract;

/** The {@link SessionStoreContract} on the in-memory store. */
class MemorySessionStoreTest extends SessionStoreContract {
  @Override
  protected SessionStore store() {
    return SessionStore.inMemory();
  }
}
