package io.promptd.library.internal.skills;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * The served forms (decoded text or base64) of the large files read lately, by the digest of their
 * bytes: a file read again, by one client or many at once, is encoded once, not once a read.
 * Bounded by the chars it holds; the entry used longest ago goes first. Files below
 * {@link #MIN_BYTES} are encoded on every read: their encodings cost little.
 */
final class EncodedFiles {
  /** Files smaller than this are not kept. */
  static final int MIN_BYTES = 256 * 1024;

  private final long budget;
  private final Map<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private long held;

  /** @param budget the chars held at most, summed over the encodings kept */
  EncodedFiles(long budget) {
    this.budget = budget;
  }

  /** A cache of a sixteenth of the heap, at most 64 MiB of chars. */
  static EncodedFiles sized() {
    return new EncodedFiles(Math.min(64L << 20, Runtime.getRuntime().maxMemory() / 16));
  }

  /** One file's served form: text, or base64 when {@code text} is false. */
  record Encoded(boolean text, String value) {}

  private record Entry(CompletableFuture<Encoded> encoded, long chars) {}

  /**
   * The served form of a file of {@code size} bytes whose bytes have {@code key} (their digest, and
   * how the file's type is served): kept, or made by {@code encode} now; a read of the same bytes
   * meanwhile waits for it rather than encoding them too.
   */
  Encoded get(String key, long size, Supplier<Encoded> encode) {
    if (size < MIN_BYTES || size * 2 > budget) {
      return encode.get();
    }
    CompletableFuture<Encoded> mine = null;
    CompletableFuture<Encoded> found;
    synchronized (this) {
      Entry e = entries.get(key);
      if (e == null) {
        mine = new CompletableFuture<>();
        // Base64 takes 4/3 chars a byte, text at most one a byte: 4/3 bounds both.
        long chars = size * 4 / 3 + 4;
        entries.put(key, new Entry(mine, chars));
        held += chars;
        evict(key);
        found = mine;
      } else {
        found = e.encoded();
      }
    }
    if (mine != null) {
      try {
        mine.complete(encode.get());
      } catch (RuntimeException | Error e) {
        forget(key, mine);
        mine.completeExceptionally(e);
        throw e;
      }
    }
    try {
      return found.join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw e;
    }
  }

  /** The chars held now, for tests. */
  synchronized long held() {
    return held;
  }

  @SuppressWarnings("ReferenceEquality") // this attempt's entry, not a later one for the same bytes
  private synchronized void forget(String key, CompletableFuture<Encoded> encoded) {
    Entry e = entries.get(key);
    if (e != null && e.encoded() == encoded) {
      entries.remove(key);
      held -= e.chars();
    }
  }

  /** Drops the entries used longest ago until the rest fit; the one just added stays. */
  private void evict(String kept) {
    var it = entries.entrySet().iterator();
    while (held > budget && it.hasNext()) {
      Map.Entry<String, Entry> e = it.next();
      if (!e.getKey().equals(kept)) {
        held -= e.getValue().chars();
        it.remove();
      }
    }
  }
}
