package io.promptd.mcp.http;

import io.promptd.mcp.jsonrpc.Message;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A legacy session's server-to-client stream (the one a GET opens): every message gets an event id, the last few are
 * kept for {@code Last-Event-ID} resumption, and at most one connection receives them at a time. Messages sent while no
 * connection is attached wait in the log; they are replayed to a client that resumes.
 */
final class EventLog {
  private final int capacity;
  private final ReentrantLock lock = new ReentrantLock();
  private final ArrayDeque<Event> recent = new ArrayDeque<>();
  private long seq;
  private @Nullable SseWriter attached;

  private record Event(long seq, Message message) {}

  EventLog(int capacity) {
    this.capacity = capacity;
  }

  /** Logs a message and sends it to the attached connection, if any. Never throws: the log keeps it either way. */
  void publish(Message message) {
    lock.lock();
    try {
      Event e = new Event(++seq, message);
      recent.addLast(e);
      if (recent.size() > capacity) {
        recent.removeFirst();
      }
      SseWriter w = attached;
      if (w != null) {
        try {
          w.send(Long.toString(e.seq), message);
        } catch (RuntimeException failed) {
          attached = null; // the client went away; it may resume with Last-Event-ID
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Attaches a connection. Without {@code lastEventId} it fails when another live connection is attached; with one,
   * it takes over (the old connection is likely half-open) and first replays what came after that id.
   *
   * @return whether the connection is now attached
   */
  boolean attach(SseWriter writer, @Nullable String lastEventId) {
    lock.lock();
    try {
      SseWriter old = attached;
      if (old != null && !old.ended() && lastEventId == null) {
        return false;
      }
      if (old != null) {
        old.close();
      }
      // Attached before the first byte goes out: once the client sees the stream open, nothing may bypass it.
      attached = writer;
      try {
        writer.prime(Long.toString(seq));
        long after = parse(lastEventId);
        for (Event e : List.copyOf(recent)) {
          if (after >= 0 && e.seq > after) {
            writer.send(Long.toString(e.seq), e.message);
          }
        }
      } catch (RuntimeException e) {
        attached = null; // the client went away while we replayed; the caller sees the writer has ended
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** Detaches {@code writer} if it is the attached one. */
  void detach(SseWriter writer) {
    lock.lock();
    try {
      if (attached == writer) {
        attached = null;
      }
    } finally {
      lock.unlock();
    }
  }

  /** Whether a live connection is attached. */
  boolean connected() {
    SseWriter w = attached;
    return w != null && !w.ended();
  }

  /** Ends the attached connection cleanly. */
  void close() {
    lock.lock();
    try {
      SseWriter w = attached;
      attached = null;
      if (w != null) {
        w.close();
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
