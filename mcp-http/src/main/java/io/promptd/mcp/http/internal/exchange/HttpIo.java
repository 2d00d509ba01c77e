package io.promptd.mcp.http.internal.exchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link Exchange} reads its request from and writes its response to: the seam between the
 * routes and the server under them. The embedded Jetty is one implementation; an in-memory one
 * serves the route tests.
 */
public interface HttpIo {
  String method();

  String path();

  /** The request target's raw query string, or null. */
  @Nullable
  String query();

  /** The {@code Host} header, or the request target's authority (HTTP/2 has no Host header). */
  @Nullable
  String authority();

  /** The first value of a request header, or null. */
  @Nullable
  String header(String name);

  /** Every value of a request header, in order. */
  List<String> headers(String name);

  /** The client's address, or null when unknown. */
  @Nullable
  String remoteAddress();

  /** The declared body length, or -1 when unknown (chunked). */
  long declaredLength();

  /** The whole body if it has already arrived, read without blocking; else null. */
  byte @Nullable [] bodyIfArrived(int max);

  /** Reads the whole body, blocking; null when it is longer than {@code max}. */
  byte @Nullable [] body(int max) throws IOException;

  /** Whether a read of the body began. */
  boolean bodyStarted();

  void status(int status);

  /** Sets a response header, replacing any value it had. */
  void setHeader(String name, String value);

  /** Whether the response's status and headers were sent. */
  boolean committed();

  /**
   * Writes the last bytes of the response; exactly one of {@code written} and {@code failed} runs
   * once it is done.
   */
  void writeLast(ByteBuffer bytes, Runnable written, Consumer<Throwable> failed);

  /** The response body as a stream, for an event stream the caller writes and flushes. */
  OutputStream stream();

  /** The exchange ended well. */
  void succeeded();

  /** The exchange failed: the connection is dropped. */
  void failed(Throwable cause);
}
