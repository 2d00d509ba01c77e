package io.promptd.mcp.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A client connection made by hand from a chosen loopback address (all of 127.0.0.0/8 is this
 * machine on Linux), for what java.net.http cannot do: send half a request, hold many connections,
 * or come from another address.
 */
final class RawSocket implements AutoCloseable {
  private final Socket socket;

  /** Connects from {@code from} to the server's loopback {@code port}. */
  RawSocket(String from, int port) throws IOException {
    socket = new Socket();
    socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 5000);
    socket.setSoTimeout(15_000);
  }

  /** Writes {@code text} as is. */
  RawSocket send(String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
    return this;
  }

  /**
   * Writes a request: {@code head} (the request line and headers, each ending in CRLF), then
   * {@code body}.
   */
  RawSocket request(String head, String body) throws IOException {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    return send(head + "Content-Length: " + b.length + "\r\n\r\n" + body);
  }

  /**
   * The status of the response now arriving, or -1 when the server closed the connection instead.
   */
  int status() throws IOException {
    String line = line();
    return line == null || line.length() < 12 ? -1 : Integer.parseInt(line.substring(9, 12));
  }

  /**
   * Reads a whole response, head and a {@code Content-Length} body, so that the connection can
   * carry another: its status, or -1 when the server closed the connection instead.
   */
  int answer() throws IOException {
    int status = status();
    if (status < 0) {
      return status;
    }
    int length = 0;
    for (String h = line(); h != null && !h.isEmpty(); h = line()) {
      if (h.regionMatches(true, 0, "Content-Length:", 0, 15)) {
        length = Integer.parseInt(h.substring(15).strip());
      }
    }
    socket.getInputStream().readNBytes(length);
    return status;
  }

  /** Reads everything until the server closes the connection. */
  String rest() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    socket.getInputStream().transferTo(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /**
   * Whether the server closes the connection within {@code within}: end of stream or a reset,
   * having discarded whatever arrived before.
   */
  boolean closedWithin(Duration within) throws IOException {
    long deadline = System.nanoTime() + within.toNanos();
    InputStream in = socket.getInputStream();
    try {
      while (true) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return false;
        }
        socket.setSoTimeout((int) left);
        if (in.read() < 0) {
          return true;
        }
      }
    } catch (SocketTimeoutException e) {
      return false;
    } catch (SocketException e) {
      return true; // reset
    }
  }

  /**
   * Whether nothing arrives for {@code within}: no byte, no end of stream. Reads at most one byte,
   * so a true answer leaves the response to come for {@link #status()}.
   */
  boolean quietFor(Duration within) throws IOException {
    socket.setSoTimeout((int) Math.max(1, within.toMillis()));
    try {
      socket.getInputStream().read();
      return false;
    } catch (SocketTimeoutException e) {
      return true;
    } catch (SocketException e) {
      return false; // reset
    } finally {
      socket.setSoTimeout(15_000);
    }
  }

  private @org.jspecify.annotations.Nullable String line() throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder b = new StringBuilder();
    try {
      for (int c = in.read(); c >= 0; c = in.read()) {
        if (c == '\n') {
          return b.toString().strip();
        }
        b.append((char) c);
      }
    } catch (SocketException e) {
      return null; // reset
    }
    return b.isEmpty() ? null : b.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
