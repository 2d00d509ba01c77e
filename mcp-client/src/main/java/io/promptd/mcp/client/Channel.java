package io.promptd.mcp.client;

import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/** A way to exchange JSON-RPC messages with a server: a child process's pipes, or HTTP requests. */
interface Channel extends AutoCloseable {
  /**
   * Sends a request; the future completes with its response, or exceptionally when the channel
   * fails.
   */
  CompletableFuture<Response> call(Request request);

  /**
   * Gives up on a request: stdio sends {@code notifications/cancelled}, HTTP closes the request's
   * stream.
   */
  void cancel(Request request);

  /** Sends a notification. */
  void notify(Notification notification) throws IOException;

  /** Where notifications from the server go (list changes, subscription acknowledgements, ...). */
  void onNotification(Consumer<Notification> listener);

  /**
   * Who answers the server's own requests ({@code ping}, {@code elicitation/create}, ...): called
   * on a thread of its own for each request, so it may take as long as a user does; its response is
   * sent back the way the transport sends client messages. Until one is set, only {@code ping} is
   * answered.
   */
  void onRequest(Function<Request, Response> handler);

  /** Describes the far end for error messages: the command line or the URL. */
  String describe();

  @Override
  void close();
}
