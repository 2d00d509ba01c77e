package io.promptd.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The soak driver (see {@code benchmarks/soak.sh}): many concurrent HTTP clients of both eras
 * against a running {@code promptd serve --http}, a prompt file changed every second, and the
 * server's RSS and open descriptors sampled throughout. Prints a summary and exits 1 when a check
 * fails.
 *
 * <p>Usage: {@code Soak --url URL --pid PID --dir DIR [--seconds 600] [--clients 1000] [--slow N]
 * [--warmup S] [--think-ms 1000] [--grace S] [--break-streams N] [--idle N] [--no-growth-check]};
 * {@code --break-streams N} breaks the streams of N legacy and N modern clients halfway through
 * (the client drops the connection, as a network failure would), to check that they hear every
 * change all the same.
 *
 * <p>{@code --idle N} adds N idle 2026-07-28 {@code subscriptions/listen} streams that send nothing
 * else, held beside the clients and checked as theirs are (a {@code list_changed} after every
 * edit); {@code --no-growth-check} reports RSS and descriptors without failing on their growth (a
 * busy load grows the heap as it warms up).
 */
public final class Soak {
  private static final int HTTP_CLIENTS = 8;
  private final URI uri;
  private final long pid;
  private final Path dir;
  private final int seconds;
  private final int clients;
  private final int slow;
  private final int warmup;
  private final long thinkMillis;
  private final int grace;
  private final int idle;
  private final boolean growthCheck;
  private final Latencies latencies = new Latencies();
  private final int breakStreams;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final AtomicInteger failureCount = new AtomicInteger();
  private final List<Long> edits = new ArrayList<>();

  private Soak(String[] args) {
    URI u = null;
    long p = -1;
    Path d = null;
    int s = 600;
    int c = 1000;
    int sl = -1;
    int w = -1;
    long t = 1000;
    int g = 10;
    int id = 0;
    boolean gc = true;
    int b = 0;
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : "";
      switch (args[i]) {
        case "--url" -> u = URI.create(v);
        case "--pid" -> p = Long.parseLong(v);
        case "--dir" -> d = Path.of(v);
        case "--seconds" -> s = Integer.parseInt(v);
        case "--clients" -> c = Integer.parseInt(v);
        case "--slow" -> sl = Integer.parseInt(v);
        case "--warmup" -> w = Integer.parseInt(v);
        case "--think-ms" -> t = Long.parseLong(v);
        case "--grace" -> g = Integer.parseInt(v);
        case "--idle" -> id = Integer.parseInt(v);
        case "--no-growth-check" -> {
          gc = false;
          i--; // no value
        }
        case "--break-streams" -> b = Integer.parseInt(v);
        default -> throw new IllegalArgumentException("Soak: unknown option " + args[i]);
      }
      i++;
    }
    if (u == null || p < 0 || d == null) {
      throw new IllegalArgumentException("Soak: --url, --pid and --dir are required");
    }
    this.uri = u;
    this.pid = p;
    this.dir = d;
    this.seconds = s;
    this.clients = c;
    this.slow = sl >= 0 ? sl : Math.max(3, c / 100);
    this.warmup = w >= 0 ? w : Math.max(15, s / 6);
    this.thinkMillis = t;
    this.grace = g;
    this.idle = id;
    this.growthCheck = gc;
    this.breakStreams = b;
  }

  public static void main(String[] args) throws Exception {
    Soak soak = new Soak(args);
    // java.net.http keeps every idle HTTP/1.1 connection it ever opened: one burst of concurrent
    // requests (a GC pause
    // of the server, a busy minute of this shared machine) would leave the pool, and the server's
    // open descriptors
    // and per-connection memory, larger for the rest of the run. A bounded idle pool keeps the
    // number of request
    // connections a function of the load rather than of its worst moment, so that growth the check
    // sees is the
    // server's own. Read once, when the first client is built.
    int idlePerClient = Math.max(4, (soak.clients - soak.slow) / HTTP_CLIENTS / 8);
    System.setProperty("jdk.httpclient.connectionPoolSize", Integer.toString(idlePerClient));
    System.setProperty("jdk.httpclient.keepalive.timeout", "10");
    System.exit(soak.run() ? 0 : 1);
  }

  private void failure(String message) {
    if (failureCount.incrementAndGet() <= 20) {
      failures.add(message);
    }
  }

  private boolean run() throws Exception {
    edit(0);
    long t0 = System.nanoTime();
    List<HttpClient> https = new ArrayList<>();
    ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
    for (int i = 0; i < HTTP_CLIENTS; i++) {
      https.add(HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .executor(pool)
          .connectTimeout(Duration.ofSeconds(10))
          .build());
    }
    awaitReady(https.get(0));
    ServerSampler sampler =
        new ServerSampler(pid, Duration.ofSeconds(Math.max(1, Math.min(5, seconds / 12))));
    sampler.start();
    String loadBefore = loadAverage();

    List<SoakClient> idles = openIdle(https);
    int readers = clients - slow;
    List<SoakClient> reading = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    long rampNanos = Duration.ofSeconds(Math.min(10, Math.max(1, warmup / 2))).toNanos();
    for (int i = 0; i < readers; i++) {
      SoakClient c = new SoakClient(
          i,
          i % 2 == 1,
          https.get(i % https.size()),
          uri,
          thinkMillis,
          stopping,
          this::failure,
          latencies);
      reading.add(c);
      long startAt = t0 + rampNanos * i / Math.max(1, readers);
      threads.add(Thread.ofVirtual().name("soak-client-" + i).start(() -> {
        try {
          sleepUntil(startAt);
          c.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    List<SlowConsumer> slows = new ArrayList<>();
    for (int i = 0; i < slow; i++) {
      SlowConsumer s = new SlowConsumer(i, uri);
      slows.add(s);
      Thread.ofVirtual().name("soak-slow-" + i).start(() -> {
        try {
          s.start(https.get(0));
        } catch (IOException e) {
          if (!stopping.get()) {
            failure("slow consumer " + s.kind() + ": " + e);
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }

    // One edit a second until the end; the commit time of each is when its rename returned.
    long end = t0 + Duration.ofSeconds(seconds).toNanos();
    for (int n = 1; System.nanoTime() < end; n++) {
      sleepUntil(t0 + Duration.ofSeconds(n).toNanos());
      if (n == seconds / 2) {
        breakStreams(reading);
      }
      edit(n);
    }
    long lastEdit = edits.getLast();
    List<SoakClient> listening = new ArrayList<>(reading);
    listening.addAll(idles);
    awaitLastNotification(listening, lastEdit);
    ServerSampler.Sample last = sampler.sampleNow();
    String loadAfter = loadAverage();
    stopping.set(true);
    for (Thread t : threads) {
      t.join(Duration.ofSeconds(60));
    }
    reading.forEach(SoakClient::close);
    idles.forEach(SoakClient::close);
    slows.forEach(SlowConsumer::close);
    sampler.stop();
    return report(reading, idles, slows.size(), sampler, last, t0, loadBefore, loadAfter);
  }

  /**
   * Opens the idle streams, 32 at a time, before the clients start; each is acknowledged when this
   * returns.
   */
  private List<SoakClient> openIdle(List<HttpClient> https) throws InterruptedException {
    List<SoakClient> idles = new ArrayList<>();
    for (int i = 0; i < idle; i++) {
      idles.add(new SoakClient(
          i,
          true,
          true,
          https.get(i % https.size()),
          uri,
          thinkMillis,
          stopping,
          this::failure,
          latencies));
    }
    Semaphore opening = new Semaphore(32);
    List<Thread> threads = new ArrayList<>();
    for (SoakClient c : idles) {
      opening.acquire();
      threads.add(Thread.ofVirtual().name("soak-idle-" + c.name()).start(() -> {
        try {
          c.run();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } finally {
          opening.release();
        }
      }));
    }
    for (Thread t : threads) {
      t.join(Duration.ofSeconds(60));
    }
    return idles;
  }

  /**
   * Breaks the streams of {@link #breakStreams} legacy and as many modern clients (see the class
   * comment).
   */
  private void breakStreams(List<SoakClient> reading) {
    int legacy = 0;
    int modern = 0;
    for (SoakClient c : reading) {
      if (c.modern() ? modern++ < breakStreams : legacy++ < breakStreams) {
        c.close();
      }
    }
  }

  private void awaitReady(HttpClient http) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String last = "";
    for (long id = 1; System.nanoTime() < deadline; id++) {
      try {
        if (SoakWire.containsName(
            SoakWire.call(
                http,
                uri,
                id,
                "prompts/list",
                SoakWire.modern(id, "prompts/list", ""),
                "MCP-Protocol-Version",
                SoakWire.MODERN,
                "Mcp-Method",
                "prompts/list"),
            "soak")) {
          return;
        }
        last = "soak.prompt.md not listed yet";
      } catch (SoakWire.Failure e) {
        last = e.getMessage();
      }
      Thread.sleep(200); // polling the server's readiness, with a deadline
    }
    throw new IllegalStateException(
        "Soak: the server at " + uri + " is not ready after 60 s: " + last);
  }

  /** Waits (at most the grace period) until every reading client heard of the last edit. */
  private void awaitLastNotification(List<SoakClient> reading, long lastEdit)
      throws InterruptedException {
    long deadline = lastEdit + Duration.ofSeconds(grace).toNanos();
    while (System.nanoTime() < deadline) {
      boolean all = true;
      for (SoakClient c : reading) {
        List<Long> heard = c.heard();
        if (c.streamEnd() == null && (heard.isEmpty() || heard.getLast() <= lastEdit)) {
          all = false;
          break;
        }
      }
      if (all) {
        return;
      }
      Thread.sleep(100); // polling the clients' state, with a deadline
    }
  }

  private void edit(int n) throws IOException {
    Path file = dir.resolve("soak.prompt.md");
    Path temp = dir.resolveSibling(dir.getFileName() + "-soak.prompt.md.tmp");
    Files.writeString(
        temp,
        "---\ntitle: Soak\ndescription: Changed by the soak, edit " + n + "\n---\n" + "Edit " + n
            + ": say hello.\n",
        StandardCharsets.UTF_8);
    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    edits.add(System.nanoTime());
  }

  private static void sleepUntil(long nanoTime) throws InterruptedException {
    long left = nanoTime - System.nanoTime();
    if (left > 0) {
      Thread.sleep(Duration.ofNanos(left)); // pacing of the load
    }
  }

  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + ", " + f[1] + ", " + f[2];
    } catch (IOException e) {
      return "unknown";
    }
  }

  /**
   * What a group of streams heard: edits expected after each opened, notifications received, edits
   * missed.
   */
  private record Heard(
      long expected,
      long received,
      long missed,
      int lastBefore,
      int ended,
      int notOpened,
      int fewest,
      int most,
      int reopened,
      int reinitialized,
      List<String> endings) {}

  private Heard heard(List<SoakClient> streams) {
    long expected = 0;
    long received = 0;
    long missed = 0;
    int lastBefore = 0;
    int ended = 0;
    int notOpened = 0;
    int fewest = Integer.MAX_VALUE;
    int most = 0;
    int reopened = 0;
    int reinitialized = 0;
    List<String> endings = new ArrayList<>();
    long graceNanos = Duration.ofSeconds(grace).toNanos();
    long lastEdit = edits.getLast();
    for (SoakClient c : streams) {
      if (c.openedAt() == Long.MAX_VALUE) {
        notOpened++;
        continue;
      }
      String end = c.streamEnd();
      if (end != null) {
        ended++;
        failure(c.name() + ": stream lost: " + end);
      }
      reopened += c.endCount();
      reinitialized += c.reinitialized();
      if (c.endCount() > 0 && endings.size() < 10) {
        endings.add(c.name() + ": " + c.endCount() + " time(s): " + String.join("; ", c.ends()));
      }
      List<Long> heard = c.heard();
      received += heard.size();
      fewest = Math.min(fewest, heard.size());
      most = Math.max(most, heard.size());
      int missedHere = 0;
      int j = 0;
      for (long e : edits) {
        if (e <= c.openedAt()) {
          continue;
        }
        expected++;
        while (j < heard.size() && heard.get(j) <= e) {
          j++;
        }
        if (j == heard.size() || heard.get(j) > e + graceNanos) {
          missedHere++;
        }
      }
      missed += missedHere;
      if (missedHere > 0) {
        failure(c.name() + ": " + missedHere + " edit(s) with no list_changed within " + grace
            + " s (heard " + heard.size() + ", stream ended early " + c.endCount() + " time(s))");
      }
      if (heard.isEmpty() || heard.getLast() <= lastEdit) {
        lastBefore++;
      }
    }
    return new Heard(
        expected,
        received,
        missed,
        lastBefore,
        ended,
        notOpened,
        fewest == Integer.MAX_VALUE ? 0 : fewest,
        most,
        reopened,
        reinitialized,
        List.copyOf(endings));
  }

  private void streamProblems(Heard h, String whose, List<String> problems) {
    if (h.notOpened() > 0 || h.ended() > 0) {
      problems.add(h.notOpened() + " " + whose + "stream(s) never opened, " + h.ended()
          + " lost (ended and not reopened)");
    }
    if (h.missed() > 0 || h.lastBefore() > 0) {
      problems.add(h.missed() + " edit(s) not followed by list_changed within " + grace + " s on "
          + whose + "streams; " + h.lastBefore() + " " + whose
          + "stream(s) whose last list_changed precedes the last edit");
    }
  }

  private boolean report(
      List<SoakClient> reading,
      List<SoakClient> idles,
      int slowCount,
      ServerSampler sampler,
      ServerSampler.Sample last,
      long t0,
      String loadBefore,
      String loadAfter) {
    long requests = 0;
    long failed = 0;
    for (SoakClient c : reading) {
      requests += c.requests();
      failed += c.failed();
    }
    for (SoakClient c : idles) {
      failed += c.failed();
    }
    Heard clientsHeard = heard(reading);
    Heard idleHeard = heard(idles);
    // The growth checks start from the server under the whole load: on a busy machine the ramp can
    // outlast the warm-up, and a sample taken while clients were still connecting would count their
    // connections as growth.
    long allOpen = reading.stream()
        .mapToLong(SoakClient::openedAt)
        .filter(t -> t != Long.MAX_VALUE)
        .max()
        .orElse(t0);
    ServerSampler.Sample warm =
        sampler.firstAfter(Math.max(t0 + Duration.ofSeconds(warmup).toNanos(), allOpen));
    List<String> problems = new ArrayList<>();
    if (failed > 0) {
      problems.add(failed + " failed request(s)");
    }
    streamProblems(clientsHeard, "", problems);
    streamProblems(idleHeard, "idle ", problems);
    // The idle streams are all open before the first timed edit and closed together: each hears
    // every notification the server sends, so any one that heard fewer than another lost some.
    if (idleHeard.fewest() != idleHeard.most()) {
      problems.add("the idle streams heard " + idleHeard.fewest() + " to " + idleHeard.most()
          + " list_changed each, not all the same");
    }
    long expected = clientsHeard.expected();
    long received = clientsHeard.received();
    long missed = clientsHeard.missed();
    int lastBefore = clientsHeard.lastBefore();
    if (!growthCheck) {
      // reported below, not checked
    } else if (warm == null) {
      problems.add("no sample after the " + warmup + " s warm-up");
    } else {
      if (last.rssKib() > warm.rssKib() * 1.10) {
        problems.add("RSS grew more than 10 % after warm-up");
      }
      if (last.fds() > warm.fds() * 1.10) {
        problems.add("open descriptors grew more than 10 % after warm-up");
      }
    }
    int legacy = (int) reading.stream().filter(c -> !c.modern()).count();
    System.out.printf(
        Locale.ROOT,
        "soak: %d s, %d clients (%d legacy sessions, %d listen streams, %d slow consumers),"
            + " %d edits, load average before %s, at the end %s%n",
        seconds,
        clients,
        legacy,
        reading.size() - legacy,
        slowCount,
        edits.size(),
        loadBefore,
        loadAfter);
    System.out.printf(
        Locale.ROOT,
        "requests: %,d done, %,d failed (%.0f/s)%n",
        requests,
        failed,
        requests / (double) seconds);
    System.out.printf(
        Locale.ROOT,
        "latency: p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms (%,d requests timed)%n",
        latencies.quantileMillis(0.50),
        latencies.quantileMillis(0.99),
        latencies.quantileMillis(0.999),
        latencies.quantileMillis(1.0),
        latencies.count());
    System.out.printf(
        Locale.ROOT,
        "list_changed: %,d edits expected across reading clients, %,d received, %,d missed;"
            + " %d client(s) whose last one precedes the last edit%n",
        expected,
        received,
        missed,
        lastBefore);
    if (!idles.isEmpty()) {
      System.out.printf(
          Locale.ROOT,
          "idle streams: %,d (%,d never opened, %,d ended early); list_changed: %,d expected"
              + " (%,d a stream, as many as the most any heard), %,d received (%,d to %,d a"
              + " stream); %,d of %,d edits not followed by one within %d s; %d stream(s) whose last"
              + " one precedes the last edit%n",
          idles.size(),
          idleHeard.notOpened(),
          idleHeard.ended(),
          (long) idleHeard.most() * (idles.size() - idleHeard.notOpened()),
          idleHeard.most(),
          idleHeard.received(),
          idleHeard.fewest(),
          idleHeard.most(),
          idleHeard.missed(),
          idleHeard.expected(),
          grace,
          idleHeard.lastBefore());
      System.out.printf(
          Locale.ROOT,
          "idle list_changed: %,d/%,d received, %,d edits missed%n",
          idleHeard.received(),
          (long) idleHeard.most() * (idles.size() - idleHeard.notOpened()),
          idleHeard.missed());
    }
    System.out.printf(
        Locale.ROOT,
        "streams: %d early end(s) (%d reopened in a new session), %d lost%n",
        clientsHeard.reopened(),
        clientsHeard.reinitialized(),
        clientsHeard.ended());
    for (String e : clientsHeard.endings()) {
      System.out.println("  ended early: " + e);
    }
    for (ServerSampler.Sample s : sampler.samples()) {
      System.out.printf(
          Locale.ROOT,
          "  sample t=%5.1f s  RSS %,7d KiB  fds %,5d  threads %,4d%n",
          (s.nanoTime() - t0) / 1e9,
          s.rssKib(),
          s.fds(),
          s.threads());
    }
    List<ServerSampler.Sample> all = sampler.samples();
    if (!all.isEmpty()) {
      System.out.printf(
          Locale.ROOT,
          "server RSS: %,d KiB at the first sample -> %,d KiB at the end, peak %,d KiB%n",
          all.getFirst().rssKib(),
          last.rssKib(),
          sampler.peakRssKib());
    }
    if (warm != null) {
      System.out.printf(
          Locale.ROOT,
          "server: RSS %,d KiB after warm-up (t=%.0f s) -> %,d KiB at the end (%+.1f %%),"
              + " peak %,d KiB; fds %,d -> %,d (%+.1f %%)%n",
          warm.rssKib(),
          (warm.nanoTime() - t0) / 1e9,
          last.rssKib(),
          100.0 * (last.rssKib() - warm.rssKib()) / warm.rssKib(),
          sampler.peakRssKib(),
          warm.fds(),
          last.fds(),
          100.0 * (last.fds() - warm.fds()) / warm.fds());
    }
    for (String f : failures) {
      System.out.println("  failure: " + f);
    }
    if (failureCount.get() > failures.size()) {
      System.out.println("  … and " + (failureCount.get() - failures.size()) + " more");
    }
    System.out.println(
        problems.isEmpty() ? "soak: passed" : "soak: failed (" + String.join("; ", problems) + ")");
    return problems.isEmpty();
  }
}
