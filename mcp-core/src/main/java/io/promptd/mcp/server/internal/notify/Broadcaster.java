package io.promptd.mcp.server.internal.notify;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.spi.Caller;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Delivers change notifications. {@code notifications/prompts/list_changed}: many catalog changes
 * within the coalescing window become one notification to every initialized legacy session and
 * every modern subscription that asked for it.
 */
public final class Broadcaster {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.server");

  /** Why open subscriptions end when the server closes. */
  static final String CLOSED = "the server is shutting down";

  private final Duration window;
  private final AtomicBoolean pending = new AtomicBoolean();
  /**
   * What the changes since the last notification required: see {@link #promptsChanged}. Guarded by
   * itself.
   */
  private final Set<Set<String>> changedScopes = new HashSet<>();

  private boolean changedForEveryone;
  private final Set<SessionChannel> sessions = ConcurrentHashMap.newKeySet();
  private final Set<Subscription> subscriptions = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer;
  private volatile boolean closed;
  /** Whether prompts are offered as tools too: their list changes with the prompts'. */
  private final boolean tools;

  public Broadcaster(Duration window, boolean tools) {
    this.window = window;
    this.tools = tools;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "promptd-list-changed");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Schedules {@code notifications/prompts/list_changed} for the callers who may see a prompt that
   * changed.
   *
   * @param scopes the scopes required by the changed prompts (before and after the change); null
   *     for every caller
   */
  public void promptsChanged(@Nullable Set<Set<String>> scopes) {
    synchronized (changedScopes) {
      if (scopes == null) {
        changedForEveryone = true;
      } else {
        changedScopes.addAll(scopes);
      }
    }
    if (!closed && pending.compareAndSet(false, true)) {
      try {
        Future<?> unused = timer.schedule(this::fire, window.toNanos(), TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException e) {
        // close() won the race; the exception must not reach the thread that edited the catalog
      }
    }
  }

  public void addSession(SessionChannel session) {
    sessions.add(session);
  }

  public void removeSession(SessionChannel session) {
    sessions.remove(session);
  }

  public void addSubscription(Subscription subscription) {
    subscriptions.add(subscription);
    if (closed) {
      subscription.end(Broadcaster.CLOSED);
    }
  }

  public void removeSubscription(Subscription subscription) {
    subscriptions.remove(subscription);
  }

  public void close() {
    closed = true;
    timer.shutdownNow();
    for (Subscription s : subscriptions) {
      s.end(Broadcaster.CLOSED);
    }
  }

  /**
   * Runs {@code task} on the notification thread, so that providers' listeners never block on a
   * slow client.
   */
  public void submit(Runnable task) {
    if (closed) {
      return;
    }
    try {
      timer.execute(task);
    } catch (RejectedExecutionException e) {
      LOG.log(Level.DEBUG, "dropping a notification: the server is closing");
    }
  }

  /**
   * Sends {@code notification} to the initialized legacy sessions {@code concerned}; failed
   * channels are dropped.
   */
  void toSessions(Predicate<SessionChannel> concerned, Notification notification) {
    List<SessionChannel> failed = new ArrayList<>();
    for (SessionChannel session : sessions) {
      if (!concerned.test(session)) {
        continue;
      }
      try {
        session.notifyClient(notification);
      } catch (RuntimeException e) {
        LOG.log(Level.DEBUG, "dropping a session whose channel failed: {0}", e.getMessage());
        failed.add(session);
      }
    }
    failed.forEach(sessions::remove);
  }

  /** Sends a log message to every initialized legacy session whose level admits it. */
  public void log(LoggingLevel level, Notification message) {
    for (SessionChannel session : sessions) {
      if (session.admits(level)) {
        try {
          session.notifyClient(message);
        } catch (RuntimeException e) {
          LOG.log(
              Level.DEBUG,
              "dropping a log message for a session whose channel failed: {0}",
              e.getMessage());
        }
      }
    }
  }

  /** Delivers a notification to every modern subscription that {@code wants} it. */
  void toSubscriptions(Predicate<Subscription> wants, String method, JsonObject params) {
    for (Subscription s : subscriptions) {
      if (wants.test(s)) {
        s.deliver(method, params);
      }
    }
  }

  /**
   * Who hears of a change to what callers holding one of {@code scopes} may see (null: every
   * caller): unrestricted callers, and those who hold all the scopes of one element.
   */
  static Predicate<Caller> concerned(@Nullable Set<Set<String>> scopes) {
    return scopes == null
        ? caller -> true
        : caller -> caller.unrestricted() || scopes.stream().anyMatch(caller::permits);
  }

  /**
   * Sends the coalesced {@code list_changed} to each session and subscription whose caller may see
   * at least one of the prompts that changed: a caller never hears of changes to prompts it cannot
   * see (the notification names none anyway, but its timing would tell).
   */
  private void fire() {
    pending.set(false);
    Set<Set<String>> scopes;
    boolean everyone;
    synchronized (changedScopes) {
      scopes = Set.copyOf(changedScopes);
      everyone = changedForEveryone;
      changedScopes.clear();
      changedForEveryone = false;
    }
    Predicate<Caller> concerned = concerned(everyone ? null : scopes);
    toSessions(
        session -> concerned.test(session.caller()),
        new Notification(Methods.NOTIFICATION_PROMPTS_LIST_CHANGED, null));
    toSubscriptions(
        s -> s.promptsListChanged() && concerned.test(s.caller()),
        Methods.NOTIFICATION_PROMPTS_LIST_CHANGED,
        JsonObject.EMPTY);
    if (tools) {
      toSessions(
          session -> concerned.test(session.caller()),
          new Notification(Methods.NOTIFICATION_TOOLS_LIST_CHANGED, null));
      toSubscriptions(
          s -> s.toolsListChanged() && concerned.test(s.caller()),
          Methods.NOTIFICATION_TOOLS_LIST_CHANGED,
          JsonObject.EMPTY);
    }
  }
}
