package io.promptd.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Holds idle event streams open on a promptd HTTP server, one connection each, so that the server's
 * memory per idle stream can be read (benchmarks/idle-streams.sh does that). Opens {@code COUNT}
 * streams, waits until each is acknowledged, prints {@code open COUNT}, then holds them until its
 * standard input closes; then prints {@code events N}, the events the first stream carried after it
 * opened.
 *
 * <ul>
 *   <li>{@code modern} (the default): a 2026-07-28 {@code subscriptions/listen} stream per
 *       connection, acknowledged by its {@code subscriptions/acknowledged} event.
 *   <li>{@code legacy}: a legacy session per connection ({@code initialize} at 2025-11-25, then
 *       {@code notifications/initialized}, then the session's GET stream), opened when its priming
 *       event has come.
 * </ul>
 *
 * <pre>java -cp … io.promptd.bench.IdleStreams HOST PORT COUNT [modern|legacy]</pre>
 */
public final class IdleStreams {
  private static final Pattern SESSION = Pattern.compile("(?im)^Mcp-Session-Id:\\s*(\\S+)\\s*$");
  private static final Pattern LENGTH = Pattern.compile("(?im)^Content-Length:\\s*(\\d+)\\s*$");

  private IdleStreams() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    int count = Integer.parseInt(args[2]);
    boolean legacy = args.length > 3 && args[3].toLowerCase(Locale.ROOT).equals("legacy");
    List<Socket> open = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Socket s = new Socket();
      s.connect(new InetSocketAddress(host, port), 10_000);
      s.setSoTimeout(30_000);
      if (legacy) {
        openSession(s, host, port, i);
      } else {
        openListen(s, host, port, i);
      }
      open.add(s);
    }
    AtomicInteger events = new AtomicInteger();
    Thread counter = null;
    if (!open.isEmpty()) {
      InputStream first = open.get(0).getInputStream();
      open.get(0).setSoTimeout(0);
      counter = Thread.ofPlatform().daemon().start(() -> countEvents(first, events));
    }
    System.out.println("open " + open.size());
    System.out.flush();
    while (System.in.read() >= 0) {
      // hold the streams until told to let go
    }
    for (Socket s : open) {
      s.close();
    }
    if (counter != null) {
      counter.join(5_000);
    }
    System.out.println("events " + events.get());
    System.out.flush();
  }

  private static void openListen(Socket s, String host, int port, int which) throws IOException {
    String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\",\"params\":{"
        + "\"notifications\":{\"promptsListChanged\":true},\"_meta\":{"
        + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    send(
        s,
        post(
            host,
            port,
            body,
            "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\n"));
    awaitText(s.getInputStream(), which, "subscriptions/acknowledged");
  }

  /**
   * A legacy session on {@code s}: {@code initialize}, {@code notifications/initialized}, then the
   * GET stream, all on the one connection.
   */
  private static void openSession(Socket s, String host, int port, int which) throws IOException {
    InputStream in = s.getInputStream();
    send(
        s,
        post(
            host,
            port,
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"idle-streams\",\"version\":\"1\"}}}",
            ""));
    String head = readHead(in, which);
    Matcher sid = SESSION.matcher(head);
    if (!head.startsWith("HTTP/1.1 200") || !sid.find()) {
      throw new IOException("session " + which + " was refused: " + head);
    }
    String session = sid.group(1);
    skipBody(in, head, which);
    send(
        s,
        post(
            host,
            port,
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "Mcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: 2025-11-25\r\n"));
    String accepted = readHead(in, which);
    if (!accepted.startsWith("HTTP/1.1 202")) {
      throw new IOException("session " + which + ": notifications/initialized got " + accepted);
    }
    skipBody(in, accepted, which);
    send(
        s,
        ("GET /mcp HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nAccept: text/event-stream\r\nMcp-Session-Id: " + session
                + "\r\nMCP-Protocol-Version: 2025-11-25\r\n\r\n")
            .getBytes(UTF_8));
    // 2025-11-25 opens a stream with a priming event: an id and empty data.
    awaitText(in, which, "\ndata:");
  }

  private static byte[] post(String host, int port, String body, String headers) {
    return ("POST /mcp HTTP/1.1\r\nHost: " + host + ":" + port
            + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            + headers + "Content-Length: " + body.getBytes(UTF_8).length + "\r\n\r\n" + body)
        .getBytes(UTF_8);
  }

  private static void send(Socket s, byte[] request) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(request);
    out.flush();
  }

  /** Reads a response's head, up to and with its blank line. */
  private static String readHead(InputStream in, int which) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int state = 0; // how much of "\r\n\r\n" has been seen
    while (state < 4) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("connection " + which + " closed in a response's head: " + head);
      }
      head.write(b);
      state = b == (state % 2 == 0 ? '\r' : '\n') ? state + 1 : b == '\r' ? 1 : 0;
      if (head.size() > 65_536) {
        throw new IOException("connection " + which + ": a response head over 64 KiB");
      }
    }
    return head.toString(UTF_8);
  }

  /** Reads and drops a response's body, which must have a {@code Content-Length}. */
  private static void skipBody(InputStream in, String head, int which) throws IOException {
    Matcher length = LENGTH.matcher(head);
    if (!length.find()) {
      throw new IOException("connection " + which + ": an answer without Content-Length: " + head);
    }
    byte[] body = in.readNBytes(Integer.parseInt(length.group(1)));
    if (body.length < Integer.parseInt(length.group(1))) {
      throw new IOException("connection " + which + " closed in a response's body");
    }
  }

  /** Reads the stream's first bytes until {@code text} has come after a 200. */
  private static void awaitText(InputStream in, int which, String text) throws IOException {
    StringBuilder seen = new StringBuilder();
    byte[] buf = new byte[4096];
    while (seen.indexOf(text) < 0) {
      int n = in.read(buf);
      if (n < 0) {
        throw new IOException("stream " + which + " closed before it was acknowledged: " + seen);
      }
      seen.append(new String(buf, 0, n, UTF_8));
      if (seen.length() > 65_536 || seen.indexOf("HTTP/1.1 200") < 0 && seen.length() > 12) {
        throw new IOException("stream " + which + " was refused: " + seen);
      }
    }
  }

  /** Counts the events ({@code id:} lines) that arrive on {@code in} until it closes. */
  private static void countEvents(InputStream in, AtomicInteger events) {
    byte[] buf = new byte[8192];
    int state = 0; // 1 after a newline, 2 after "\ni", 3 after "\nid"
    try {
      int n;
      while ((n = in.read(buf)) >= 0) {
        for (int i = 0; i < n; i++) {
          byte b = buf[i];
          if (state == 3 && b == ':') {
            events.incrementAndGet();
          }
          state = b == '\n' ? 1 : state == 1 && b == 'i' ? 2 : state == 2 && b == 'd' ? 3 : 0;
        }
      }
    } catch (IOException e) {
      // the socket was closed: the count is final
    }
  }
}
