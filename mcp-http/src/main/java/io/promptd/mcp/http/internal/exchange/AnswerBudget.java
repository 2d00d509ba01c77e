package io.promptd.mcp.http.internal.exchange;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.spi.Reply;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The bytes of large answers (a big resource's text or blob) encoded and not yet written, bounded
 * across all requests of the process: each encoded answer is an array of its size held until the
 * client has read it, so many reads of a large file at once would otherwise hold many such arrays
 * at once. An answer of at least {@link #LARGE} bytes takes its size from the budget before it is
 * encoded and gives it back once written; one that finds the budget spent waits up to
 * {@link #WAIT_SECONDS} seconds, then is answered with a JSON-RPC error saying the server is busy.
 * Smaller answers are not counted. The budget is a quarter of the heap's maximum unless the system
 * property {@code promptd.answer-budget-mb} gives it; an answer larger than the whole budget takes
 * all of it.
 */
final class AnswerBudget {
  /** Answers from this size on are counted. */
  static final long LARGE = 1L << 20;

  /** How long an answer waits for room. */
  static final long WAIT_SECONDS = 30;

  static final AnswerBudget SHARED = new AnswerBudget(configured());

  private final Semaphore kib;
  private final int totalKib;

  AnswerBudget(long bytes) {
    this.totalKib = (int) Math.max(1, Math.min(Integer.MAX_VALUE, bytes >> 10));
    this.kib = new Semaphore(totalKib, true);
  }

  private static long configured() {
    Long mb = Long.getLong("promptd.answer-budget-mb");
    return mb != null && mb > 0 ? mb << 20 : Runtime.getRuntime().maxMemory() / 4;
  }

  /**
   * Takes room for {@code reply}'s answer, waiting at most {@code seconds}.
   *
   * @return what gives the room back (nothing to give for a small answer), or null when there was
   *     no room in time
   */
  @Nullable
  Runnable take(Reply reply, long seconds) throws InterruptedException {
    long size = reply.response() instanceof ResultResponse r ? size(r.result()) : 0;
    if (size < LARGE) {
      return () -> {};
    }
    int wanted = (int) Math.min(totalKib, (size >> 10) + 1);
    if (!kib.tryAcquire(wanted, seconds, TimeUnit.SECONDS)) {
      return null;
    }
    return () -> kib.release(wanted);
  }

  /** The KiB free now, for tests. */
  int availableKib() {
    return kib.availablePermits();
  }

  /**
   * About the bytes {@code value} takes as JSON: its strings' chars, which are what a large answer
   * is made of.
   */
  static long size(Json value) {
    return switch (value) {
      case JsonString s -> s.value().length();
      case JsonObject o -> {
        long n = 0;
        for (Json member : o.members().values()) {
          n += size(member);
        }
        yield n;
      }
      case JsonArray a -> {
        long n = 0;
        for (Json element : a.elements()) {
          n += size(element);
        }
        yield n;
      }
      default -> 0;
    };
  }
}
