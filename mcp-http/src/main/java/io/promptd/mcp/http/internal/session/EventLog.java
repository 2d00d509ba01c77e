package io.promptd.mcp.http.internal.session;

import io.promptd.mcp.http.internal.exchange.SseWriter;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.spi.StreamQueue;
import io.promptd.mcp.spi.Wire;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A legacy session's server-to-client stream (the ones GETs open): every message gets an event id,
 * the last few are kept for {@code Last-Event-ID} resumption, and each message goes to exactly one
 * attached connection (the newest live one; the spec lets a client hold several streams, and the
 * server sends each message on only one), through that connection's own {@link StreamQueue}.
 * Publishing never touches the network, so a client that stops reading delays nobody; messages sent
 * while no connection is attached wait in the log and are replayed to a client that resumes.
 *
 * <p>A client that resumes from further back than the log reaches is still told what it most needs
 * to know: the latest of each notification that only says "look again" (a list changed, a resource
 * was updated) among those that left the log is sent again, under its own id, before the events the
 * log holds. Other messages that left the log (log lines, progress) are lost to it.
 */
public final class EventLog {
  private static final String PROMPTS_LIST_CHANGED = Methods.NOTIFICATION_PROMPTS_LIST_CHANGED;
  /**
   * Notifications that only say "look again": the latest of each still tells a client all that the
   * others did.
   */
  private static final Set<String> RESTATED = Set.of(
      Methods.NOTIFICATION_PROMPTS_LIST_CHANGED,
      Methods.NOTIFICATION_TOOLS_LIST_CHANGED,
      Methods.NOTIFICATION_RESOURCES_LIST_CHANGED,
      Methods.NOTIFICATION_RESOURCES_UPDATED);
  /**
   * How many GET streams one session may hold at once; a further one replaces the oldest, so that a
   * client reconnecting again and again past half-dead sockets is never locked out and never piles
   * up connections.
   */
  public static final int MAX_CONNECTIONS = 4;

  /**
   * How many distinct "look again" notifications that left the log are remembered (one per list,
   * one per updated resource); beyond that the longest-standing is forgotten.
   */
  static final int RESTATED_KINDS = 64;

  private final int capacity;
  private final StreamQueue.Limits limits;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Event> recent = new ArrayDeque<>();
  /**
   * The latest "look again" notification of each kind (by its JSON text) to have left
   * {@link #recent}, in the order they left it: what a client resuming from before them is sent
   * again.
   */
  private final LinkedHashMap<String, Event> left = new LinkedHashMap<>();
  /** The sequence number of the last event to have left {@link #recent}; 0 while none has. */
  private long leftThrough;

  private final @Nullable Tagging tagging;
  private long seq;
  /** The attached connections, oldest first; at most {@link #MAX_CONNECTIONS}. */
  private final ArrayDeque<Connection> attached = new ArrayDeque<>();

  private record Event(long seq, String id, Message message) {}

  /**
   * Event ids that another replica can read: {@code tag.seq.version}, where {@code tag} names this
   * log and {@code version} is the catalog version when the event was sent. A replica that is asked
   * to resume from an id of another log cannot replay it, but can tell from the version whether the
   * client missed a prompt list change.
   */
  record Tagging(String tag, LongSupplier version) {}

  private record Connection(SseWriter writer, StreamQueue queue) {}

  /**
   * @param capacity how many events to keep for resumption; a resuming client's replay must fit the
   *     queue, so it is held below {@code limits.maxFrames()}
   * @param limits how far an attached connection may fall behind before it is closed
   */
  public EventLog(int capacity, StreamQueue.Limits limits) {
    this(capacity, limits, null);
  }

  /**
   * @param tagging how to make event ids other replicas can read, or null for plain sequence
   *     numbers
   */
  public EventLog(int capacity, StreamQueue.Limits limits, @Nullable Tagging tagging) {
    this.capacity = Math.max(1, Math.min(capacity, limits.maxFrames() - 1));
    this.limits = limits;
    this.tagging = tagging;
  }

  private String id(long n) {
    Tagging t = tagging;
    return t == null ? Long.toString(n) : t.tag() + "." + n + "." + t.version().getAsLong();
  }

  /**
   * Logs a message and queues it for the newest live connection, if any. Never blocks on the
   * network, never throws.
   */
  public void publish(Message message) {
    lock.lock();
    try {
      long n = ++seq;
      Event e = new Event(n, id(n), message);
      keep(e);
      byte[] frame = SseWriter.frame(e.id(), message);
      for (Connection c = attached.peekLast(); c != null; c = attached.peekLast()) {
        if (live(c) && c.queue().offer(frame)) {
          break;
        }
        attached
            // Closed or given up: the next newest takes the message; a client may resume
            .removeLast();
        c.queue().close();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Attaches a connection and starts its queue; it receives what is published from now on. With
   * {@code lastEventId} it first replays what came after that id. Beyond {@link #MAX_CONNECTIONS}
   * the oldest connection is ended.
   *
   * @param prime whether to open with an event that has an id and empty data (2025-11-25 and later
   *     define this "priming" event; earlier clients may not expect an event without data, and get
   *     a comment line instead)
   * @param abort drops the connection, without blocking, when it falls behind
   * @return the connection's queue
   */
  public StreamQueue attach(
      SseWriter writer, @Nullable String lastEventId, boolean prime, Runnable abort) {
    lock.lock();
    try {
      attached.removeIf(c -> {
        if (live(c)) {
          return false;
        }
        c.queue().close();
        return true;
      });
      while (attached.size() >= MAX_CONNECTIONS) {
        attached.removeFirst().queue().close(); // its GET ends once the queue is drained
      }
      // Attached before the first frame is queued: once the client sees the stream open, nothing
      // may bypass it.
      StreamQueue queue =
          StreamQueue.start("a legacy session's GET stream", writer::writeFrame, limits, abort);
      attached.addLast(new Connection(writer, queue));
      // Either way the client sees the stream open at once (the headers are sent with the first
      // frame).
      queue.offer(prime ? SseWriter.primeFrame(id(seq)) : SseWriter.commentFrame());
      Tagging t = tagging;
      String[] foreign =
          t == null || lastEventId == null ? null : lastEventId.trim().split("\\.", -1);
      if (t != null && foreign != null && foreign.length == 3 && !foreign[0].equals(t.tag())) {
        // Another replica's stream: its events cannot be replayed here, but a newer catalog says
        // what was missed.
        if (parse(foreign[2]) >= 0 && parse(foreign[2]) < t.version().getAsLong()) {
          long n =
              ++seq; // an event of this log like any other, so that resuming here from it works
          Event e = new Event(n, id(n), new Notification(PROMPTS_LIST_CHANGED, null));
          keep(e);
          queue.offer(SseWriter.frame(e.id(), e.message()));
        }
        return queue;
      }
      long after = parse(foreign == null ? lastEventId : foreign.length == 3 ? foreign[1] : null);
      if (after >= 0) {
        List<Event> replay = new ArrayList<>();
        if (after < leftThrough) { // some of what the client missed has left the log
          left.values().stream().filter(e -> e.seq() > after).forEach(replay::add);
        }
        recent.stream().filter(e -> e.seq() > after).forEach(replay::add);
        for (Event e : replay) {
          queue.offer(SseWriter.frame(e.id(), e.message()));
        }
      }
      return queue;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds an event to the log; the oldest leaves it when it is full (remembered if it says "look
   * again"). Locked.
   */
  private void keep(Event e) {
    recent.addLast(e);
    if (recent.size() <= capacity) {
      return;
    }
    Event gone = recent.removeFirst();
    leftThrough = gone.seq();
    if (gone.message() instanceof Notification n && RESTATED.contains(n.method())) {
      String kind = new String(Wire.encode(n, null, false), StandardCharsets.UTF_8);
      left.remove(kind); // re-inserted last: the map stays in the order the events left the log
      left.put(kind, gone);
      if (left.size() > RESTATED_KINDS) {
        left.pollFirstEntry();
      }
    }
  }

  /** Detaches {@code writer} if it is attached, and ends its queue. */
  public void detach(SseWriter writer) {
    lock.lock();
    try {
      attached.removeIf(c -> {
        if (c.writer() != writer) {
          return false;
        }
        c.queue().close();
        return true;
      });
    } finally {
      lock.unlock();
    }
  }

  /** Whether a live connection is attached. */
  boolean connected() {
    lock.lock();
    try {
      return attached.stream().anyMatch(EventLog::live);
    } finally {
      lock.unlock();
    }
  }

  /** Ends the attached connections cleanly, once what is queued for each is written. */
  void close() {
    lock.lock();
    try {
      for (Connection c : attached) {
        c.queue().close();
      }
      attached.clear();
    } finally {
      lock.unlock();
    }
  }

  private static boolean live(Connection c) {
    return !c.writer().ended() && !c.queue().failed();
  }

  private static long parse(@Nullable String id) {
    if (id == null) {
      return -1;
    }
    try {
      return Long.parseLong(id.trim());
    } catch (NumberFormatException e) {
      return -1; // not one of ours: attach without replay
    }
  }
}
