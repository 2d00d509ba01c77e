package io.promptd.bench;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Request latencies of a run, counted in buckets of one microsecond up to 1 ms, then of 2 % of
 * their value (a quantile is off by at most one bucket), so that millions of requests cost a fixed
 * few kilobytes.
 */
final class Latencies {
  private static final int LINEAR = 1000;
  private static final double STEP = 1.02;
  private static final int BUCKETS = LINEAR + 700; // 1 ms * 1.02^700 is over 10^6 s
  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

  void add(long nanos) {
    long micros = Math.max(0, nanos / 1000);
    int bucket = micros < LINEAR
        ? (int) micros
        : LINEAR
            + (int)
                Math.min(BUCKETS - LINEAR - 1, Math.log(micros / (double) LINEAR) / Math.log(STEP));
    counts.incrementAndGet(bucket);
  }

  long count() {
    long n = 0;
    for (int i = 0; i < BUCKETS; i++) {
      n += counts.get(i);
    }
    return n;
  }

  /**
   * The latency (ms, the bucket's upper end) at or below which {@code quantile} of the requests
   * took, or 0.
   */
  double quantileMillis(double quantile) {
    long n = count();
    if (n == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(quantile * n);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts.get(i);
      if (seen >= rank) {
        return upperMicros(i) / 1000.0;
      }
    }
    return upperMicros(BUCKETS - 1) / 1000.0;
  }

  private static double upperMicros(int bucket) {
    return bucket < LINEAR ? bucket + 1 : LINEAR * Math.pow(STEP, bucket - LINEAR + 1);
  }
}
