package io.promptd.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds idle 2026-07-28 {@code subscriptions/listen} streams open on a promptd HTTP server, one
 * connection each, so that the server's memory per idle stream can be read
 * (benchmarks/idle-streams.sh does that). Opens {@code COUNT} streams, waits until each is
 * acknowledged, prints {@code open COUNT}, then holds them until its standard input closes.
 *
 * <pre>java -cp … io.promptd.bench.IdleStreams HOST PORT COUNT</pre>
 */
public final class IdleStreams {
  private IdleStreams() {}

  public static void main(String[] args) throws IOException {
    String host = args[0];
    int port = Integer.parseInt(args[1]);
    int count = Integer.parseInt(args[2]);
    String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"subscriptions/listen\",\"params\":{"
        + "\"notifications\":{\"promptsListChanged\":true},\"_meta\":{"
        + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
    byte[] request = ("POST /mcp HTTP/1.1\r\nHost: " + host + ":" + port
            + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
            + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\n"
            + "Content-Length: " + body.getBytes(UTF_8).length + "\r\n\r\n" + body)
        .getBytes(UTF_8);
    List<Socket> open = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Socket s = new Socket();
      s.connect(new InetSocketAddress(host, port), 10_000);
      s.setSoTimeout(30_000);
      OutputStream out = s.getOutputStream();
      out.write(request);
      out.flush();
      awaitAcknowledged(s.getInputStream(), i);
      open.add(s);
    }
    System.out.println("open " + open.size());
    System.out.flush();
    while (System.in.read() >= 0) {
      // hold the streams until told to let go
    }
    for (Socket s : open) {
      s.close();
    }
  }

  /**
   * Reads the stream's first bytes until its acknowledgement has come (a 200 and the acknowledged
   * event).
   */
  private static void awaitAcknowledged(InputStream in, int which) throws IOException {
    StringBuilder seen = new StringBuilder();
    byte[] buf = new byte[4096];
    while (seen.indexOf("subscriptions/acknowledged") < 0) {
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
}
