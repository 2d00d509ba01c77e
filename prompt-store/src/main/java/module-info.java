/**
 * promptd's prompt store: prompt and resource files kept in PostgreSQL with their history
 * ({@code promptd publish}, {@code history}, {@code rollback}), and a change feed over
 * {@code LISTEN/NOTIFY} that keeps a serving {@link io.promptd.library.Library} current
 * ({@code promptd serve --store}); one {@link io.promptd.store.StoreDatabase} (pool and listening
 * connection) per process, which the legacy HTTP sessions of {@code io.promptd.store.sessions}
 * share. Free of any HTTP transport.
 */
module io.promptd.store {
  requires static transitive org.jspecify;
  requires transitive io.promptd.library;
  requires transitive java.sql;
  requires org.postgresql.jdbc;
  requires com.zaxxer.hikari;
  requires flyway.core;

  exports io.promptd.store;
}
