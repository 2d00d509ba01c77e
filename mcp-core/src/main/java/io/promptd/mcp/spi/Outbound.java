package io.promptd.mcp.spi;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.Message;

/**
 * Where a session sends messages the client did not ask for as a response: notifications tied to a
 * request (a {@code subscriptions/listen} stream) or to a session ({@code list_changed} for a
 * legacy client). A transport writes each message whole; it may throw when its stream has closed,
 * and the server then stops using it. The notification broadcaster calls it for every client in
 * turn, so it must not wait for the network: transports enqueue (see
 * {@link io.promptd.mcp.spi.StreamQueue}) and write on the stream's own thread, which runs while
 * there is something to write.
 */
@FunctionalInterface
@Stability(Stability.Tier.EXPERIMENTAL)
public interface Outbound {
  /** Sends one message. */
  void send(Message message);

  /**
   * Whether the server may send requests of its own here ({@code elicitation/create} to a legacy
   * client) and expect the client's response to come back through the session: true for a channel
   * both ways, such as stdio; false (the default) where such requests would arrive on a stream
   * unrelated to the request that needs them.
   */
  default boolean carriesRequests() {
    return false;
  }

  /**
   * {@code outbound}, marked as a channel the server may send its own requests on (see
   * {@link #carriesRequests}).
   */
  static Outbound carryingRequests(Outbound outbound) {
    return new Outbound() {
      @Override
      public void send(Message message) {
        outbound.send(message);
      }

      @Override
      public boolean carriesRequests() {
        return true;
      }
    };
  }

  /** An outbound that drops everything, for sessions that have no server-to-client channel. */
  static Outbound discard() {
    return message -> {};
  }
}
