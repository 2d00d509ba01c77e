package io.promptd.mcp.testing;

import io.promptd.mcp.jsonrpc.Message;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An {@link Outbound} that keeps what the server sends, for tests that wait for asynchronous
 * notifications.
 */
public final class Recorder implements Outbound {
  /**
   * How long a test waits for something that should happen promptly; generous, since CI machines
   * are shared.
   */
  public static final Duration PATIENCE = Duration.ofSeconds(20);

  private final LinkedBlockingQueue<Message> received = new LinkedBlockingQueue<>();
  private final List<String> all = Collections.synchronizedList(new ArrayList<>());

  @Override
  public void send(Message message) {
    all.add(MessageCodec.encode(message));
    received.add(message);
  }

  /** The next message, as JSON text, waiting up to {@link #PATIENCE}; fails when none arrives. */
  public String next() throws InterruptedException {
    Message m = received.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
    if (m == null) {
      throw new AssertionError("nothing was sent within " + PATIENCE + "; so far: " + all());
    }
    return MessageCodec.encode(m);
  }

  /** Everything sent so far, as JSON text, in order. */
  public List<String> all() {
    synchronized (all) {
      return List.copyOf(all);
    }
  }
}
