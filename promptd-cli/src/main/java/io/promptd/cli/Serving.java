package io.promptd.cli;

import io.promptd.library.Library;
import io.promptd.mcp.http.HttpTransportBuilder;
import io.promptd.mcp.http.SessionStore;
import io.promptd.store.StoreUsage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What one server serves, once its {@link Served} source is open: the library, its readiness, and
 * what a store or a Git branch adds (further labels, mounts, usage, sessions); closed when the
 * server stops. What a source does not add is the default.
 */
interface Serving extends AutoCloseable {
  /** What {@code /mcp} (or stdio) serves. */
  Library library();

  /** The readiness check: every library loaded. */
  boolean loaded();

  /**
   * The other readiness check: why a library's feed does not follow its source now (one line), or
   * null.
   */
  @Nullable
  String feedProblem();

  /**
   * Completes when every library was first loaded, or null when they were before the source was
   * open (folders): a start waits for it up to {@link Serve#STORE_START_WAIT}.
   */
  default @Nullable CompletionStage<?> firstLoad() {
    return null;
  }

  /**
   * Waits up to {@code timeout} for the first load of what stdio serves; returns whether it
   * happened.
   */
  default boolean awaitFirst(Duration timeout) throws InterruptedException {
    return true;
  }

  /** What a start prints when the first load takes longer than it waits. */
  default String notLoaded() {
    return "";
  }

  /** The version {@code /mcp}'s event ids carry, or null for its catalog's. */
  default @Nullable LongSupplier catalogVersion() {
    return null;
  }

  /** The further labels' views, each served on {@link StoreViews#path}. */
  default List<StoreViews.View> further() {
    return List.of();
  }

  /**
   * Adds further paths to the HTTP server (a Git source's webhook, the management API); none by
   * default.
   */
  default void mount(HttpTransportBuilder builder) {}

  /** Where uses are written (with a store), or null. */
  default @Nullable StoreUsage usage() {
    return null;
  }

  /** Where legacy HTTP sessions are kept (with a store), or null for the server's own memory. */
  default @Nullable SessionStore sessionStore() {
    return null;
  }

  /** The key that signs legacy session ids and cursors, or null for a per-process one. */
  ServeOptions.@Nullable SessionSecret sessionSecret();

  /** Stops what follows the source and closes the library. */
  @Override
  void close();
}
