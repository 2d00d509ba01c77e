package io.promptd.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * MCP over HTTP as raw text, for tests and the soak that check what promptd puts on the wire
 * without a client library in between: request bodies of both eras, a POST with the headers the
 * transport expects, the modern metadata headers, a Server-Sent Events reader, and a raw HTTP/1.1
 * exchange for headers {@code java.net.http} refuses to set.
 */
public final class McpWire {
  /** The {@code Accept} header a Streamable HTTP client sends. */
  public static final String ACCEPT_BOTH = "application/json, text/event-stream";
  /** The stateless protocol revision. */
  public static final String MODERN = "2026-07-28";

  private McpWire() {}

  /** A JSON-RPC request body; {@code params} is a JSON object's text. */
  public static String request(long id, String method, String params) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":"
        + params + "}";
  }

  /**
   * A 2026-07-28 request body: {@code members} (an object's members as text, may be empty) plus the
   * per-request {@code _meta} of a client named {@code client} that declares no capabilities.
   */
  public static String modern(long id, String method, String members, String client) {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"" + MODERN + "\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{},"
        + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"" + client + "\",\"version\":\"1\"}}";
    return request(id, method, "{" + (members.isEmpty() ? "" : members + ",") + meta + "}");
  }

  /**
   * The modern metadata headers for {@code method}, with {@code Mcp-Name} when {@code name} is not
   * null.
   */
  public static String[] modernHeaders(String method, @Nullable String name) {
    return name == null
        ? new String[] {"MCP-Protocol-Version", MODERN, "Mcp-Method", method}
        : new String[] {"MCP-Protocol-Version", MODERN, "Mcp-Method", method, "Mcp-Name", name};
  }

  /**
   * A POST of {@code body} to {@code uri} with {@code Accept} and {@code Content-Type} as a client
   * sends them, unless {@code headers} (name, value, name, value, ...) set them otherwise.
   */
  public static HttpRequest.Builder post(
      URI uri, String body, Duration timeout, String... headers) {
    return request(uri, timeout, headers).POST(HttpRequest.BodyPublishers.ofString(body));
  }

  /**
   * A request to {@code uri} with {@code headers} (name, value, ...) and the client's
   * {@code Accept} and {@code Content-Type} unless they are among them; the caller picks the
   * method.
   */
  public static HttpRequest.Builder request(URI uri, Duration timeout, String... headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout);
    boolean accept = false;
    boolean type = false;
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
      accept |= headers[i].equalsIgnoreCase("Accept");
      type |= headers[i].equalsIgnoreCase("Content-Type");
    }
    if (!accept) {
      b.header("Accept", ACCEPT_BOTH);
    }
    if (!type) {
      b.header("Content-Type", "application/json");
    }
    return b;
  }

  /** Sends a raw HTTP/1.1 request to loopback {@code port} and returns its status code. */
  public static int rawStatus(int port, String requestHead, String body) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      byte[] b = body.getBytes(StandardCharsets.UTF_8);
      out.write((requestHead + "Content-Length: " + b.length + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.write(b);
      out.flush();
      String status = new BufferedReader(
              new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1))
          .readLine();
      if (status == null || status.length() < 12) {
        throw new IOException("no HTTP status line: " + status);
      }
      return Integer.parseInt(status.substring(9, 12));
    }
  }

  /** One Server-Sent Event: its id ("" for none) and its data lines joined with newlines. */
  public record Event(String id, String data) {}

  /** Reads Server-Sent Events one at a time from a stream, blocking. */
  public static final class Events {
    private final BufferedReader in;

    private Events(Reader in) {
      this.in = in instanceof BufferedReader b ? b : new BufferedReader(in);
    }

    /** Events from a response body. */
    public static Events of(InputStream in) {
      return new Events(new InputStreamReader(in, StandardCharsets.UTF_8));
    }

    /** The data of each event of a complete stream's text, events without data left out. */
    public static List<String> data(String stream) {
      Events events = new Events(new StringReader(stream));
      List<String> out = new ArrayList<>();
      try {
        for (Event e; (e = events.next()) != null; ) {
          if (!e.data().isEmpty()) {
            out.add(e.data());
          }
        }
      } catch (IOException e) {
        throw new IllegalStateException(e); // a StringReader does not fail
      }
      return out;
    }

    /**
     * The next event with an id or data (priming events, which carry only an id, included), or null
     * at the end of the stream.
     */
    public @Nullable Event next() throws IOException {
      String id = "";
      List<String> data = new ArrayList<>();
      for (String line; (line = in.readLine()) != null; ) {
        if (line.isEmpty()) {
          if (!data.isEmpty() || !id.isEmpty()) {
            return new Event(id, String.join("\n", data));
          }
        } else if (line.startsWith("id:")) {
          id = line.substring(3).trim();
        } else if (line.startsWith("data:")) {
          data.add(line.substring(5).trim());
        }
      }
      return null;
    }

    /** The next event's data, events without data skipped, or null at the end of the stream. */
    public @Nullable String nextData() throws IOException {
      for (Event e; (e = next()) != null; ) {
        if (!e.data().isEmpty()) {
          return e.data();
        }
      }
      return null;
    }
  }
}
