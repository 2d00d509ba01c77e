package io.promptd.cli;

import io.promptd.library.Library;
import io.promptd.mcp.http.HttpTransportBuilder;
import io.promptd.mcp.http.SessionStore;
import io.promptd.store.PromptStore;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreException;
import io.promptd.store.StoreUrl;
import io.promptd.store.StoreUsage;
import io.promptd.store.sessions.StoreSessions;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd serve --store}: ready once its first load is done, which a start waits for up to 5
 * s (over stdio before serving; over HTTP with the port open, holding the requests that come
 * sooner), then goes on in the background; a database lost later leaves the last snapshot served.
 * One pool and one listening connection for the library feeds, the sessions and the usage counts.
 */
final class StoreServing implements Serving {
  /**
   * How long a store-served start keeps trying to read the replicas' shared session secret before
   * it gives up: the database may be starting, or restarting, as the replicas are.
   */
  static final Duration STORE_START_RETRY = Duration.ofSeconds(30);

  /**
   * The rows of usage counts a store-served server keeps between writes (see {@link StoreUsage}):
   * 10,000, or the system property {@code promptd.usage.rows}.
   */
  static final int USAGE_ROWS = Integer.getInteger("promptd.usage.rows", 10_000);

  /**
   * How often a store-served server writes its usage counts: 5 s, or
   * {@code promptd.usage.every-ms}.
   */
  static final Duration USAGE_EVERY =
      Duration.ofMillis(Long.getLong("promptd.usage.every-ms", 5_000));

  private final StoreUrl url;
  private final StoreDatabase database;
  private final StoreViews views;
  private final @Nullable StoreSessions sessions;
  private final StoreUsage usage;
  private final ServeOptions.@Nullable SessionSecret secret;
  private final @Nullable PromptStore managed;
  private final ManageApi.@Nullable Access access;

  private StoreServing(
      StoreUrl url,
      StoreDatabase database,
      StoreViews views,
      @Nullable StoreSessions sessions,
      StoreUsage usage,
      ServeOptions.@Nullable SessionSecret secret,
      @Nullable PromptStore managed,
      ManageApi.@Nullable Access access) {
    this.url = url;
    this.database = database;
    this.views = views;
    this.sessions = sessions;
    this.usage = usage;
    this.secret = secret;
    this.managed = managed;
    this.access = access;
  }

  /**
   * Opens the store's database and starts a library per label (loading in the background), the
   * legacy sessions (over HTTP), the usage counts and, with {@code --manage}, the management API's
   * store.
   *
   * @throws IOException when the store cannot be served (its message says why)
   */
  static Serving open(Served.Store store, ServeOptions options, PrintStream err)
      throws IOException, InterruptedException {
    StoreDatabase database = StoreDatabase.open(store.url());
    StoreViews views = null;
    StoreSessions sessions = null;
    StoreUsage usage = null;
    PromptStore managed = null;
    try {
      views = StoreViews.start(database, options.library(), store.labels());
      sessions = options.http() ? StoreSessions.open(database) : null;
      usage = StoreUsage.start(database, USAGE_ROWS, USAGE_EVERY, store.usageRetention());
      // Legacy sessions live in the store, signed with --session-secret or else with the store's
      // own secret, so that every replica serves every session without configuration. Read while
      // the library loads.
      ServeOptions.SessionSecret secret = options.sessionSecret();
      if (sessions != null && secret == null) {
        try {
          secret = new ServeOptions.SessionSecret(sharedSecret(sessions, err));
        } catch (StoreException e) {
          throw new IOException(
              e.getMessage() + " (replicas need one secret for legacy sessions: give"
                  + " --session-secret, or start when the database is reachable)",
              e);
        }
      }
      ManageApi.Access access = options.manage();
      try {
        managed = access != null ? PromptStore.open(store.url()) : null;
      } catch (StoreException e) {
        throw new IOException(e.getMessage(), e);
      }
      return new StoreServing(
          store.url(), database, views, sessions, usage, secret, managed, access);
    } catch (IOException | InterruptedException | RuntimeException | Error e) {
      close(managed, usage, sessions, views, database);
      throw e;
    }
  }

  /**
   * The store's session secret, read again with backoff for up to {@link #STORE_START_RETRY} while
   * it fails.
   */
  private static byte[] sharedSecret(StoreSessions sessions, PrintStream err)
      throws StoreException, InterruptedException {
    long deadline = System.nanoTime() + STORE_START_RETRY.toNanos();
    long backoff = 250;
    boolean told = false;
    while (true) {
      try {
        return sessions.secret();
      } catch (StoreException e) {
        if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff) > deadline) {
          throw e;
        }
        if (!told) {
          told = true;
          err.println("promptd: " + e.getMessage() + "; trying again for up to "
              + STORE_START_RETRY.toSeconds() + " s");
        }
        Thread.sleep(backoff);
        backoff = Math.min(backoff * 2, 5_000);
      }
    }
  }

  @Override
  public Library library() {
    return views.first().library();
  }

  @Override
  public boolean loaded() {
    return views.loaded();
  }

  @Override
  public @Nullable String feedProblem() {
    return views.feedProblem();
  }

  @Override
  public CompletionStage<?> firstLoad() {
    return views.firstLoad();
  }

  @Override
  public boolean awaitFirst(Duration timeout) throws InterruptedException {
    return views.awaitFirst(timeout);
  }

  @Override
  public String notLoaded() {
    return "promptd: the store " + url
        + " is not loaded yet; serving nothing (not ready) until it is";
  }

  /**
   * Every replica serving the store names a change by the store's version: resumed streams compare
   * alike.
   */
  @Override
  public LongSupplier catalogVersion() {
    return views.first()::version;
  }

  @Override
  public List<StoreViews.View> further() {
    return views.further();
  }

  @Override
  public void mount(HttpTransportBuilder builder) {
    PromptStore m = managed;
    ManageApi.Access a = access;
    if (m != null && a != null) {
      ManageApi.mountOn(builder, m, database, a);
    }
  }

  @Override
  public StoreUsage usage() {
    return usage;
  }

  @Override
  public @Nullable SessionStore sessionStore() {
    return sessions;
  }

  @Override
  public ServeOptions.@Nullable SessionSecret sessionSecret() {
    return secret;
  }

  @Override
  public void close() {
    close(managed, usage, sessions, views, database);
  }

  /** Closes what was opened (the first ones may not have been), in the reverse order of opening. */
  private static void close(
      @Nullable PromptStore managed,
      @Nullable StoreUsage usage,
      @Nullable StoreSessions sessions,
      @Nullable StoreViews views,
      StoreDatabase database) {
    if (managed != null) {
      managed.close();
    }
    if (usage != null) {
      usage.close();
    }
    if (sessions != null) {
      sessions.close();
    }
    if (views != null) {
      views.close();
    }
    database.close();
  }
}
