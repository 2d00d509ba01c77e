package io.promptd.mcp.http.internal.jetty;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.jspecify.annotations.Nullable;

/**
 * The body of one request of a {@link JettyIo}: read without blocking when all of it has arrived,
 * else read blocking while the {@link HeadDeadline} knows a body is being read.
 */
final class RequestBody {
  private final Request request;
  private final HeadDeadline deadline;
  private boolean begun;
  private byte @Nullable [] partial;
  private int partialLength;

  RequestBody(Request request, HeadDeadline deadline) {
    this.request = request;
    this.deadline = deadline;
  }

  /**
   * Whether a read of the body began (a body never read makes the server drop the connection after
   * answering).
   */
  boolean started() {
    return begun;
  }

  /**
   * The whole body if it has already arrived, read without blocking; null when it has not (what
   * arrived is kept for {@link #read(int)}), or when its length is not declared or exceeds
   * {@code max}.
   */
  byte @Nullable [] ifArrived(int max) {
    long declared = request.getLength();
    if (declared < 0 || declared > max) {
      return null;
    }
    begun = true;
    byte[] bytes = new byte[(int) declared];
    int length = 0;
    boolean last = false;
    while (!last) {
      Content.Chunk chunk = request.read();
      if (chunk == null || Content.Chunk.isFailure(chunk)) {
        break; // not here yet (or failed: the blocking read reports it)
      }
      ByteBuffer b = chunk.getByteBuffer();
      int n = Math.min(b.remaining(), bytes.length - length);
      b.get(bytes, length, n);
      length += n;
      last = chunk.isLast();
      chunk.release();
    }
    // Only a body read to its end counts: content left unconsumed would make Jetty close the
    // connection after an answer that did not announce it, and a client reusing the connection
    // would see no answer at all.
    if (last && length == bytes.length) {
      return bytes;
    }
    partial = bytes;
    partialLength = length;
    return null;
  }

  /**
   * Reads the whole body, blocking, refusing more than {@code max} bytes.
   *
   * @return the body, or null when it is longer than {@code max}
   */
  byte @Nullable [] read(int max) throws IOException {
    Connection connection = request.getConnectionMetaData().getConnection();
    deadline.bodyStarted(connection);
    try {
      return readBlocking(max);
    } finally {
      deadline.bodyEnded(connection);
    }
  }

  private byte @Nullable [] readBlocking(int max) throws IOException {
    begun = true;
    long declared = request.getLength();
    byte[] started = partial;
    if (started != null) { // ifArrived read the first part
      try (InputStream in = Content.Source.asInputStream(request)) {
        int n =
            partialLength + in.readNBytes(started, partialLength, started.length - partialLength);
        return n == started.length ? started : Arrays.copyOf(started, n);
      }
    }
    try (InputStream in = Content.Source.asInputStream(request)) {
      if (declared >= 0 && declared <= max) {
        // Jetty delimits the body by its Content-Length: exactly that many bytes, read into one
        // array.
        return in.readNBytes((int) declared);
      }
      byte[] bytes = in.readNBytes(max + 1);
      return bytes.length > max ? null : bytes;
    }
  }
}
