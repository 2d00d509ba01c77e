package io.promptd.mcp.http;

import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.spi.StreamQueue;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A legacy session's server-to-client stream (the one a GET opens): every message gets an event id, the last few are
 * kept for {@code Last-Event-ID} resumption, and at most one connection receives them at a time, through its own
 * {@link StreamQueue}. Publishing never touches the network, so a client that stops reading delays nobody; messages
 * sent while no connection is attached wait in the log and are replayed to a client that resumes.
 */
final class EventLog {
  private final int capacity;
  private final StreamQueue.Limits limits;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Event> recent = new ArrayDeque<>();
  private long seq;
  private @Nullable Connection attached;

  private record Event(long seq, Message message) {}

  private record Connection(SseWriter writer, StreamQueue queue) {}

  /**
   * @param capacity how many events to keep for resumption; a resuming client's replay must fit the queue, so it is
   *     held below {@code limits.maxFrames()}
   * @param limits how far an attached connection may fall behind before it is closed
   */
  EventLog(int capacity, StreamQueue.Limits limits) {
    this.capacity = Math.max(1, Math.min(capacity, limits.maxFrames() - 1));
    this.limits = limits;
  }

  /** Logs a message and queues it for the attached connection, if any. Never blocks on the network, never throws. */
  void publish(Message message) {
    lock.lock();
    try {
      Event e = new Event(++seq, message);
      recent.addLast(e);
      if (recent.size() > capacity) {
        recent.removeFirst();
      }
      Connection c = attached;
      if (c != null && !c.queue().offer(SseWriter.frame(Long.toString(e.seq()), message))) {
        attached = null; // closed or given up; the client may resume with Last-Event-ID
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Attaches a connection and starts its queue. Without {@code lastEventId} it fails when another live connection is
   * attached; with one, it takes over (the old connection is likely half-open) and first replays what came after
   * that id.
   *
   * @param abort drops the connection, without blocking, when it falls behind
   * @return the connection's queue, or null when another connection is attached
   */
  @Nullable StreamQueue attach(SseWriter writer, @Nullable String lastEventId, Runnable abort) {
    lock.lock();
    try {
      Connection old = attached;
      if (old != null && !old.writer().ended() && !old.queue().failed() && lastEventId == null) {
        return null;
      }
      if (old != null) {
        old.queue().close(); // its GET ends once the queue is drained
      }
      // Attached before the first frame is queued: once the client sees the stream open, nothing may bypass it.
      StreamQueue queue = StreamQueue.start("a legacy session's GET stream", writer::writeFrame, limits, abort);
      attached = new Connection(writer, queue);
      queue.offer(SseWriter.primeFrame(Long.toString(seq)));
      long after = parse(lastEventId);
      for (Event e : List.copyOf(recent)) {
        if (after >= 0 && e.seq() > after) {
          queue.offer(SseWriter.frame(Long.toString(e.seq()), e.message()));
        }
      }
      return queue;
    } finally {
      lock.unlock();
    }
  }

  /** Detaches {@code writer} if it is the attached one, and ends its queue. */
  void detach(SseWriter writer) {
    lock.lock();
    try {
      Connection c = attached;
      if (c != null && c.writer() == writer) {
        attached = null;
        c.queue().close();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether a live connection is attached. */
  boolean connected() {
    lock.lock();
    try {
      Connection c = attached;
      return c != null && !c.writer().ended() && !c.queue().failed();
    } finally {
      lock.unlock();
    }
  }

  /** Ends the attached connection cleanly, once what is queued for it is written. */
  void close() {
    lock.lock();
    try {
      Connection c = attached;
      attached = null;
      if (c != null) {
        c.queue().close();
      }
    } finally {
      lock.unlock();
    }
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
