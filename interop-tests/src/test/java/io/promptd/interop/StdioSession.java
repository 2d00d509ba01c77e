package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An MCP server started as a client starts one over stdio — a command, exactly the environment
 * given — and spoken to in JSON-RPC lines, each answer awaited with a deadline. Its stderr goes to
 * a file, quoted when an answer does not come.
 */
final class StdioSession implements AutoCloseable {
  /** What the reader puts on the queue when the server closes its stdout. */
  private static final String END = "\u0000end";

  private final Process process;
  private final Path stderr;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final OutputStream in;

  private StdioSession(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.in = process.getOutputStream();
    Thread.ofVirtual().name("stdio-reader-" + process.pid()).start(this::read);
  }

  /**
   * Starts {@code command} in {@code dir} with only {@code env}, its stderr written to
   * {@code stderr}.
   */
  static StdioSession start(List<String> command, Map<String, String> env, Path dir, Path stderr)
      throws IOException {
    ProcessBuilder pb =
        new ProcessBuilder(command).directory(dir.toFile()).redirectError(stderr.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    return new StdioSession(pb.start(), stderr);
  }

  /** The server's process. */
  Process process() {
    return process;
  }

  /**
   * Sends a request and returns its answer (the first line with this id; notifications before it
   * are skipped).
   *
   * @throws AssertionError when no answer comes within {@code limit}, or the server ends first
   */
  JsonObject request(long id, String method, String params, Duration limit) throws Exception {
    send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params
        + "}");
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      String line = lines.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      if (line == null || line.equals(END)) {
        throw new AssertionError(
            (line == null ? "no answer within " + limit.toSeconds() + " s" : "the server ended")
                + " to " + method + "; its stderr:\n" + stderr());
      }
      JsonObject message = (JsonObject) JsonCodec.parse(line);
      Json answered = message.get("id");
      if (answered != null && JsonCodec.write(answered).equals(String.valueOf(id))) {
        return message;
      }
    }
  }

  /**
   * The MCP handshake of a 2025-06-18 client: {@code initialize}, then
   * {@code notifications/initialized}.
   */
  JsonObject initialize(Duration limit) throws Exception {
    JsonObject answer = request(
        1,
        "initialize",
        "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
            + "\"clientInfo\":{\"name\":\"stdio-session\",\"version\":\"1\"}}",
        limit);
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return answer;
  }

  /** What the server wrote to stderr so far. */
  String stderr() throws IOException {
    return Files.exists(stderr) ? Files.readString(stderr, UTF_8) : "";
  }

  /**
   * Closes the server's stdin (the end of the session for a stdio server) and waits for it to exit.
   */
  @Override
  public void close() throws Exception {
    try {
      in.close();
    } catch (IOException e) {
      // The server is gone already.
    }
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private void send(String line) throws IOException {
    in.write((line + "\n").getBytes(UTF_8));
    in.flush();
  }

  private void read() {
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      lines.add(END);
    }
  }
}
