/**
 * promptd's prompt store: prompt and resource files kept in PostgreSQL with their history ({@code promptd publish},
 * {@code history}, {@code rollback}), and a change feed over {@code LISTEN/NOTIFY} that keeps a serving
 * {@link io.promptd.library.Library} current ({@code promptd serve --store}); legacy HTTP sessions shared by the replicas
 * serving a store; one {@link io.promptd.store.StoreDatabase} (pool and listening connection) per process for them all.
 */
module io.promptd.store {
  requires static transitive org.jspecify;
  requires transitive io.promptd.library;
  requires transitive io.promptd.mcp.http;
  requires transitive java.sql;
  requires org.postgresql.jdbc;
  requires com.zaxxer.hikari;
  requires flyway.core;

  exports io.promptd.store;
}
