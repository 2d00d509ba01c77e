package io.promptd.mcp.client;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;

/** A server running as a child process, one JSON-RPC message per line on its stdin and stdout. */
final class StdioChannel implements Channel {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.client");

  private final Process process;
  private final String command;
  private final OutputStream stdin;
  private final Map<RequestId, CompletableFuture<Response>> pending = new ConcurrentHashMap<>();
  private volatile Consumer<Notification> listener = n -> {};
  private volatile Function<Request, Response> requests = ServerRequests::pingOnly;
  private volatile boolean closed;

  private StdioChannel(Process process, String command) {
    this.process = process;
    this.command = command;
    this.stdin = process.getOutputStream();
    Thread.ofVirtual().name("mcp-client-stdout").start(this::readLoop);
  }

  /** Starts {@code command}; its stderr goes to this process's stderr. */
  static StdioChannel start(List<String> command) throws IOException {
    Process process = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    return new StdioChannel(process, String.join(" ", command));
  }

  @Override
  public CompletableFuture<Response> call(Request request) {
    CompletableFuture<Response> future = new CompletableFuture<>();
    pending.put(request.id(), future);
    try {
      write(request);
    } catch (IOException e) {
      pending.remove(request.id());
      future.completeExceptionally(e);
    }
    return future;
  }

  @Override
  public void cancel(Request request) {
    CompletableFuture<Response> future = pending.remove(request.id());
    if (future != null) {
      try {
        notify(new Notification(
            Methods.NOTIFICATION_CANCELLED,
            JsonObject.builder()
                .put("requestId", request.id().value())
                .put("reason", "client gave up")
                .build()));
      } catch (IOException e) {
        LOG.log(Level.DEBUG, "could not send cancellation: {0}", e.getMessage());
      }
    }
  }

  @Override
  public void notify(Notification notification) throws IOException {
    write(notification);
  }

  @Override
  public void onNotification(Consumer<Notification> listener) {
    this.listener = listener;
  }

  @Override
  public void onRequest(Function<Request, Response> handler) {
    this.requests = handler;
  }

  @Override
  public String describe() {
    return command;
  }

  private synchronized void write(Message message) throws IOException {
    if (closed || !process.isAlive()) {
      throw new IOException("server process has exited: " + command);
    }
    stdin.write(MessageCodec.encodeLine(message));
    stdin.flush();
  }

  private void readLoop() {
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (!line.isBlank()) {
          receive(MessageCodec.decode(line));
        }
      }
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "server stdout closed: {0}", e.getMessage());
    }
    IOException gone = new IOException("server closed its output" + exitStatus() + ": " + command);
    pending.values().forEach(f -> f.completeExceptionally(gone));
    pending.clear();
  }

  private void receive(Incoming incoming) {
    switch (incoming) {
      case Incoming.Single(Response r)
      when r.id() != null -> {
        CompletableFuture<Response> future = pending.remove(r.id());
        if (future != null) {
          future.complete(r);
        }
      }
      case Incoming.Single(Notification n) -> listener.accept(n);
      case Incoming.Single(Request r) -> answerServerRequest(r);
      default ->
        LOG.log(Level.WARNING, "ignoring unexpected output from the server: {0}", incoming);
    }
  }

  /**
   * Answered off the reading thread: a form waits for a person, and responses must keep flowing
   * meanwhile.
   */
  private void answerServerRequest(Request r) {
    Thread.ofVirtual().name("mcp-client-server-request").start(() -> {
      try {
        write(requests.apply(r));
      } catch (IOException e) {
        LOG.log(Level.DEBUG, "could not answer the server: {0}", e.getMessage());
      }
    });
  }

  private String exitStatus() {
    try {
      if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
        return " (exit status " + process.exitValue() + ")";
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return "";
  }

  @Override
  public void close() {
    closed = true;
    try {
      stdin.close();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroy();
        if (!process.waitFor(2, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
