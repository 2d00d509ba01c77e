package io.promptd.mcp.http.internal.exchange;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * An {@link HttpIo} in memory, for route tests without a server: the request is given whole, the
 * response is kept, and {@link #await} waits for the exchange to end.
 */
public final class MemoryIo implements HttpIo {
  /** The port the request says it was sent to, in its {@code Host} header. */
  public static final int PORT = 8080;

  private final String method;
  private final String path;
  private final Map<String, List<String>> requestHeaders = new LinkedHashMap<>();
  private byte[] requestBody = new byte[0];
  private boolean bodyStarted;

  private final Object lock = new Object();
  private int status = 200;
  private final Map<String, String> responseHeaders = new LinkedHashMap<>();
  private final ByteArrayOutputStream responseBody = new ByteArrayOutputStream();
  private boolean committed;
  private final CountDownLatch ended = new CountDownLatch(1);
  private volatile @Nullable Throwable failure;

  private MemoryIo(String method, String path) {
    this.method = method;
    this.path = path;
    header("Host", "127.0.0.1:" + PORT);
  }

  /** A request with {@code Host: 127.0.0.1:8080} and no body. */
  public static MemoryIo request(String method, String path) {
    return new MemoryIo(method, path);
  }

  /** Adds a request header. */
  public MemoryIo header(String name, String value) {
    requestHeaders
        .computeIfAbsent(name.toLowerCase(Locale.ROOT), n -> new ArrayList<>())
        .add(value);
    return this;
  }

  /** Sets the request body, UTF-8. */
  public MemoryIo body(String body) {
    requestBody = body.getBytes(StandardCharsets.UTF_8);
    return this;
  }

  /**
   * Waits for the exchange to end.
   *
   * @throws AssertionError when it has not ended within {@code atMost}
   */
  public MemoryIo await(Duration atMost) throws InterruptedException {
    if (!ended.await(atMost.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new AssertionError(method + " " + path + ": no answer within " + atMost);
    }
    return this;
  }

  public int status() {
    synchronized (lock) {
      return status;
    }
  }

  /** A response header, or null. */
  public @Nullable String responseHeader(String name) {
    synchronized (lock) {
      return responseHeaders.get(name.toLowerCase(Locale.ROOT));
    }
  }

  public String responseBody() {
    synchronized (lock) {
      return responseBody.toString(StandardCharsets.UTF_8);
    }
  }

  /** Why the exchange failed, or null when it succeeded (or has not ended). */
  public @Nullable Throwable failure() {
    return failure;
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public String path() {
    return path;
  }

  @Override
  public @Nullable String query() {
    return null;
  }

  @Override
  public @Nullable String authority() {
    return header("Host");
  }

  @Override
  public @Nullable String header(String name) {
    List<String> values = headers(name);
    return values.isEmpty() ? null : values.getFirst();
  }

  @Override
  public List<String> headers(String name) {
    return List.copyOf(requestHeaders.getOrDefault(name.toLowerCase(Locale.ROOT), List.of()));
  }

  @Override
  public @Nullable String remoteAddress() {
    return "127.0.0.1";
  }

  @Override
  public long declaredLength() {
    return requestBody.length;
  }

  @Override
  public byte @Nullable [] bodyIfArrived(int max) {
    if (requestBody.length > max) {
      return null;
    }
    bodyStarted = true;
    return requestBody.clone();
  }

  @Override
  public byte @Nullable [] body(int max) throws IOException {
    bodyStarted = true;
    return requestBody.length > max ? null : Arrays.copyOf(requestBody, requestBody.length);
  }

  @Override
  public boolean bodyStarted() {
    return bodyStarted;
  }

  @Override
  public void status(int status) {
    synchronized (lock) {
      this.status = status;
    }
  }

  @Override
  public void setHeader(String name, String value) {
    synchronized (lock) {
      responseHeaders.put(name.toLowerCase(Locale.ROOT), value);
    }
  }

  @Override
  public boolean committed() {
    synchronized (lock) {
      return committed;
    }
  }

  @Override
  public void writeLast(ByteBuffer bytes, Runnable written, Consumer<Throwable> failed) {
    synchronized (lock) {
      committed = true;
      byte[] b = new byte[bytes.remaining()];
      bytes.get(b);
      responseBody.writeBytes(b);
    }
    written.run();
  }

  @Override
  public OutputStream stream() {
    return new OutputStream() {
      @Override
      public void write(int b) {
        synchronized (lock) {
          committed = true;
          responseBody.write(b);
        }
      }

      @Override
      public void write(byte[] b, int off, int len) {
        synchronized (lock) {
          committed = true;
          responseBody.write(b, off, len);
        }
      }
    };
  }

  @Override
  public void succeeded() {
    ended.countDown();
  }

  @Override
  public void failed(Throwable cause) {
    failure = cause;
    ended.countDown();
  }
}
