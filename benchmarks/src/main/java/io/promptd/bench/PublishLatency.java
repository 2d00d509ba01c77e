package io.promptd.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.store.FileVersion;
import io.promptd.store.FolderFiles;
import io.promptd.store.PromptStore;
import io.promptd.store.StoreLabels;
import io.promptd.store.StoreUrl;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Commit → {@code list_changed} latency across replicas: holds a 2026-07-28
 * {@code subscriptions/listen} stream on every URL given, publishes a changed prompt into the store
 * N times (directly through {@link PromptStore}, so the commit's time is known: right after
 * {@code publish} returns), and records when each stream hears of it.
 *
 * <pre>
 * java -cp … io.promptd.bench.PublishLatency [--label LABEL] STORE_URL LIBRARY_DIR PUBLISHES URL…
 * </pre>
 *
 * With {@code --label}, label moves instead of publishes (the replicas serve {@code --label
 * LABEL}): it publishes the library with the label on it and then a second version of the probe
 * prompt, and moves LABEL on the probe between its two versions N times ({@link StoreLabels#set},
 * committed when it returns).
 *
 * <p>Prints every latency's p50, p95 and max in milliseconds, and a {@code RESULT} line. A
 * notification that arrives before {@code publish} (or the move) returned (the replica heard the
 * commit first) counts as 0 ms.
 */
public final class PublishLatency {
  private PublishLatency() {}

  public static void main(String[] args) throws Exception {
    String label = null;
    if (args.length > 1 && args[0].equals("--label")) {
      label = args[1];
      args = Arrays.copyOfRange(args, 2, args.length);
    }
    if (args.length < 4) {
      System.err.println(
          "usage: PublishLatency [--label LABEL] STORE_URL LIBRARY_DIR PUBLISHES URL...");
      System.exit(2);
    }
    StoreUrl url = StoreUrl.parse(args[0]);
    Map<String, byte[]> files = new HashMap<>(FolderFiles.read(Path.of(args[1])));
    int publishes = Integer.parseInt(args[2]);
    List<URI> replicas = Arrays.stream(args, 3, args.length).map(URI::create).toList();
    int[] probeVersions = label == null ? null : labelled(url, files, label);
    HttpClient http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    List<BlockingQueue<Long>> streams = new ArrayList<>();
    for (URI replica : replicas) {
      streams.add(listen(http, replica));
    }
    List<Double> latencies = new ArrayList<>();
    int missed = 0;
    try (PromptStore store = PromptStore.open(url)) {
      for (int i = 0; i < publishes; i++) {
        if (label != null && probeVersions != null) {
          store.labels().set(PROBE, probeVersions[(i + 1) % 2], label, "PublishLatency");
        } else {
          files.put(PROBE, probe(i));
          store.publish(files, "PublishLatency");
        }
        long committed = System.nanoTime();
        for (BlockingQueue<Long> s : streams) {
          Long heard = s.poll(10, TimeUnit.SECONDS);
          if (heard == null) {
            missed++;
          } else {
            latencies.add(Math.max(0, heard - committed) / 1e6);
          }
        }
        TimeUnit.MILLISECONDS.sleep(
            150); // apart, so that replicas do not coalesce two publishes into one event
        for (BlockingQueue<Long> s : streams) {
          s.clear();
        }
      }
    }
    double[] sorted =
        latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    System.out.printf(
        "%s -> list_changed over %d %s x %d streams: p50 %.1f ms, p95 %.1f ms, max %.1f ms,"
            + " missed %d%n",
        label == null ? "commit" : "label move",
        publishes,
        label == null ? "publishes" : "moves of " + label,
        replicas.size(),
        pct(sorted, 50),
        pct(sorted, 95),
        sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1],
        missed);
    System.out.printf(
        "RESULT n=%d p50_ms=%.1f p95_ms=%.1f max_ms=%.1f missed=%d%n",
        sorted.length,
        pct(sorted, 50),
        pct(sorted, 95),
        sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1],
        missed);
    System.exit(0);
  }

  private static final String PROBE = "latency_probe.prompt.md";

  private static byte[] probe(int i) {
    return ("---\ndescription: probe " + i + "\n---\nProbe " + i + "\n").getBytes(UTF_8);
  }

  /**
   * Publishes the library with {@code label} on every file, then a second version of the probe
   * without it; returns the probe's two versions: the labelled one, then the newer.
   */
  private static int[] labelled(StoreUrl url, Map<String, byte[]> files, String label)
      throws Exception {
    try (PromptStore store = PromptStore.open(url)) {
      files.put(PROBE, probe(-1));
      store.publish(files, "PublishLatency", label);
      files.put(PROBE, probe(-2));
      store.publish(files, "PublishLatency");
      List<FileVersion> versions = store.history(PROBE);
      return new int[] {versions.get(1).version(), versions.get(0).version()};
    }
  }

  private static double pct(double[] sorted, int p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }

  /**
   * Opens a listen stream; the returned queue gets the arrival time (nanoTime) of each
   * list_changed.
   */
  private static BlockingQueue<Long> listen(HttpClient http, URI replica) throws Exception {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    HttpResponse<InputStream> r = http.send(
        HttpRequest.newBuilder(replica)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "subscriptions/listen")
            .POST(HttpRequest.BodyPublishers.ofString(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\","
                    + "\"params\":{\"notifications\":{\"promptsListChanged\":true}," + meta + "}}"))
            .build(),
        HttpResponse.BodyHandlers.ofInputStream());
    if (r.statusCode() != 200) {
      throw new IOException(replica + ": listen answered HTTP " + r.statusCode());
    }
    BlockingQueue<Long> events = new LinkedBlockingQueue<>();
    BlockingQueue<Boolean> acknowledged = new LinkedBlockingQueue<>();
    Thread.ofVirtual().start(() -> {
      try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          if (line.startsWith("data:") && line.contains("list_changed")) {
            events.add(System.nanoTime());
          } else if (line.startsWith("data:") && line.contains("acknowledged")) {
            acknowledged.add(true);
          }
        }
      } catch (IOException e) {
        System.err.println(replica + ": stream ended: " + e.getMessage());
      }
    });
    if (acknowledged.poll(10, TimeUnit.SECONDS) == null) {
      throw new IOException(replica + ": listen not acknowledged");
    }
    return events;
  }
}
