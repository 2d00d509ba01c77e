package io.promptd.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Samples a process's resident set ({@code VmRSS}), open descriptors and threads from {@code /proc}
 * at an interval.
 */
final class ServerSampler {
  record Sample(long nanoTime, long rssKib, long fds, long threads) {}

  private final long pid;
  private final Duration interval;
  private final List<Sample> samples = new ArrayList<>();
  private volatile boolean stopped;
  private Thread thread;

  ServerSampler(long pid, Duration interval) {
    this.pid = pid;
    this.interval = interval;
  }

  void start() {
    thread = Thread.ofPlatform().daemon().name("soak-sampler").start(() -> {
      while (!stopped) {
        sampleNow();
        try {
          Thread.sleep(interval); // the sampling period
        } catch (InterruptedException e) {
          return;
        }
      }
    });
  }

  void stop() throws InterruptedException {
    stopped = true;
    thread.interrupt();
    thread.join();
  }

  Sample sampleNow() {
    long rss = -1;
    long threads = -1;
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          rss = Long.parseLong(line.replaceAll("[^0-9]", ""));
        } else if (line.startsWith("Threads:")) {
          threads = Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(
          "Soak: cannot read /proc/" + pid + "/status (did the server exit?)", e);
    }
    long fds;
    try (Stream<Path> s = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      fds = s.count();
    } catch (IOException e) {
      throw new IllegalStateException("Soak: cannot list /proc/" + pid + "/fd", e);
    }
    Sample sample = new Sample(System.nanoTime(), rss, fds, threads);
    synchronized (samples) {
      samples.add(sample);
    }
    return sample;
  }

  List<Sample> samples() {
    synchronized (samples) {
      return List.copyOf(samples);
    }
  }

  /** The first sample taken at or after {@code nanoTime}, or null. */
  Sample firstAfter(long nanoTime) {
    for (Sample s : samples()) {
      if (s.nanoTime() >= nanoTime) {
        return s;
      }
    }
    return null;
  }

  long peakRssKib() {
    return samples().stream().mapToLong(Sample::rssKib).max().orElse(-1);
  }
}
