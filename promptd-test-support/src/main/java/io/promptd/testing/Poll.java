package io.promptd.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for what a test cannot be told about: the state of another process (a port opening, a
 * server ready, a database's lock queue, a file another process writes, a publish reaching a
 * replica). Asks again every so often until the check says yes, and fails naming what did not
 * happen once the time is up. The one place the interop tests poll; everything that can signal (a
 * latch, a future, a stream's line) is awaited instead.
 */
public final class Poll {
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  /** A condition on another process's state. */
  @FunctionalInterface
  public interface Check {
    /** Whether the awaited state has been reached. */
    boolean done() throws Exception;
  }

  private Poll() {}

  /**
   * Returns once {@code check} says yes; asks every {@code every}.
   *
   * @throws AssertionError saying {@code what} when it has not within {@code within}
   */
  public static void until(Duration within, Duration every, Supplier<String> what, Check check)
      throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    while (!check.done()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("not within " + within.toSeconds() + " s: " + what.get());
      }
      TimeUnit.NANOSECONDS.sleep(every.toNanos());
    }
  }

  /**
   * {@link #until} for a condition that throws nothing, from code that declares nothing: an
   * interruption fails the wait (the thread stays interrupted).
   *
   * @throws AssertionError saying {@code what} when it has not held within {@code within}
   */
  public static void await(
      Duration within, Duration every, String what, BooleanSupplier condition) {
    try {
      until(within, every, () -> what, condition::getAsBoolean);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting: " + what, e);
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError(what, e); // a BooleanSupplier throws nothing checked
    }
  }

  /**
   * Returns once {@code port} on loopback accepts a connection; fails at once when {@code process}
   * has exited.
   */
  public static void port(Process process, int port, Duration within) throws Exception {
    until(within, Duration.ofMillis(50), () -> "port " + port + " open", () -> {
      if (!process.isAlive()) {
        throw new AssertionError(
            "the server exited with " + process.exitValue() + " before opening port " + port);
      }
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return true;
      } catch (IOException notYet) {
        return false;
      }
    });
  }

  /** Returns once a GET of {@code url} answers 200 (a refused connection counts as not yet). */
  public static void ok(URI url, Duration within) throws Exception {
    HttpRequest get =
        HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).build();
    until(within, Duration.ofMillis(100), () -> "GET " + url + " answers 200", () -> {
      try {
        return HTTP.send(get, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
      } catch (IOException notYet) {
        return false;
      }
    });
  }
}
