package io.promptd.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code promptd health URL [--ready] [--timeout SECONDS]}: GETs a running server's
 * {@code /healthz} ({@code /readyz} with {@code --ready}) and exits 0 when it answers 200 — for
 * container health checks and scripts, where the image has no shell and no curl. The probes need no
 * token.
 *
 * <p>It uses nothing but the JDK, and {@link Main} dispatches to it without loading another
 * command's classes: the container image, which has no shell for {@code bin/promptd}, runs it as
 * {@code java -jar lib/promptd.jar health URL}, whose manifest class path names no jar that exists
 * there ({@code HealthCliTest} runs it with promptd-cli's classes alone).
 */
final class Health {
  /** How long the whole check may take unless {@code --timeout} says otherwise. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /** The most of a probe's body read and shown: its answers are a few dozen bytes. */
  private static final int MAX_BODY = 1024;

  /**
   * The last path segments that name the server's origin (or its path prefix behind a proxy): its
   * endpoints, the probes.
   */
  private static final Set<String> ENDPOINTS = Set.of("", "mcp", "sse", "healthz", "readyz");

  private record Answer(int status, String body) {}

  private Health() {}

  static int run(List<String> args, PrintStream out, PrintStream err) {
    boolean ready = false;
    Duration timeout = DEFAULT_TIMEOUT;
    String url = null;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      switch (a) {
        case "--ready" -> ready = true;
        case "--timeout" -> timeout = seconds(i + 1 < args.size() ? args.get(++i) : "");
        default -> {
          if (a.startsWith("--")) {
            throw UsageException.of("option.unknown", a);
          }
          if (url != null) {
            throw new UsageException("health takes one URL, not '" + url + "' and '" + a + "'");
          }
          url = a;
        }
      }
    }
    if (url == null) {
      throw new UsageException(
          "health takes one URL: the server's MCP URL, e.g. http://127.0.0.1:8080/mcp");
    }
    URI probe = probe(url, ready);
    Answer answer;
    try {
      answer = fetch(probe, timeout);
    } catch (IOException e) {
      err.println("promptd: cannot reach " + probe + ": " + IoFailures.describe(e, timeout));
      return Main.CONNECTION_FAILED;
    }
    if (answer.status() != 200) {
      err.println("promptd: " + probe + " answered " + answer.status()
          + (answer.body().isEmpty() ? "" : ": " + answer.body()));
      return Main.SERVER_ERROR;
    }
    out.println(probe + ": " + answer.body());
    return Main.OK;
  }

  /**
   * The probe's URL on the server {@code url} names: its last path segment ({@code mcp},
   * {@code sse}, a probe's name, or none) replaced by the probe's, so that a path prefix a proxy
   * adds is kept; query and fragment dropped.
   *
   * @throws UsageException when {@code url} is not such an http(s) URL
   */
  static URI probe(String url, boolean ready) {
    try {
      URI u = new URI(url);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
      int slash = path.lastIndexOf('/');
      if ((scheme.equals("http") || scheme.equals("https"))
          && u.getHost() != null
          && slash >= 0
          && ENDPOINTS.contains(path.substring(slash + 1))) {
        return new URI(scheme + "://" + u.getRawAuthority() + path.substring(0, slash + 1)
            + (ready ? "readyz" : "healthz"));
      }
    } catch (URISyntaxException e) {
      // said below
    }
    throw new UsageException(
        "health needs an http:// or https:// URL: the MCP URL (…/mcp) or a base URL (…/),"
            + " such as http://127.0.0.1:8080/mcp, not '" + url + "'");
  }

  /**
   * One GET with a hard deadline: the connection's own timeouts bound each wait, the deadline the
   * whole (a server that trickles its answer byte by byte would outlast them).
   */
  private static Answer fetch(URI probe, Duration timeout) throws IOException {
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    Thread.ofVirtual().name("promptd-health").start(() -> {
      try {
        answer.complete(get(probe, timeout));
      } catch (IOException | RuntimeException e) {
        answer.completeExceptionally(e);
      }
    });
    try {
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new SocketTimeoutException();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
    }
  }

  private static Answer get(URI probe, Duration timeout) throws IOException {
    HttpURLConnection c = (HttpURLConnection) probe.toURL().openConnection();
    int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    c.setConnectTimeout(millis);
    c.setReadTimeout(millis);
    c.setInstanceFollowRedirects(false);
    c.setUseCaches(false);
    c.setRequestProperty("Accept", "application/json");
    try {
      int status = c.getResponseCode();
      InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
      byte[] body = in == null ? new byte[0] : in.readNBytes(MAX_BODY);
      return new Answer(status, oneLine(new String(body, StandardCharsets.UTF_8)));
    } finally {
      c.disconnect();
    }
  }

  /** A body as one line: control characters (line breaks, escape sequences) become spaces. */
  private static String oneLine(String body) {
    StringBuilder s = new StringBuilder(body.length());
    body.codePoints().forEach(cp -> s.appendCodePoint(Character.isISOControl(cp) ? ' ' : cp));
    return s.toString().strip();
  }

  private static Duration seconds(String s) {
    try {
      double value = Double.parseDouble(s);
      if (value > 0 && value <= 3600) {
        return Duration.ofMillis(Math.max(1, (long) (value * 1000)));
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw UsageException.of("value.seconds.range", "--timeout", s);
  }
}
