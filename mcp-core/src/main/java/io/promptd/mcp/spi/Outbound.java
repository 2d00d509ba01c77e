package io.promptd.mcp.spi;

import io.promptd.mcp.jsonrpc.Message;

/**
 * Where a session sends messages the client did not ask for as a response: notifications tied to a request (a
 * {@code subscriptions/listen} stream) or to a session ({@code list_changed} for a legacy client). A transport writes
 * each message whole; it may throw when its stream has closed, and the server then stops using it. The notification
 * broadcaster calls it for every client in turn, so it must not wait for the network: transports enqueue (see {@link
 * io.promptd.mcp.spi.StreamQueue}) and write on the stream's own thread.
 */
@FunctionalInterface
public interface Outbound {
  /** Sends one message. */
  void send(Message message);

  /** An outbound that drops everything, for sessions that have no server-to-client channel. */
  static Outbound discard() {
    return message -> {};
  }
}
