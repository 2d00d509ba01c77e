package io.promptd.mcp.spi;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Message;
import java.util.List;

/** What one unit of input (a stdio line, an HTTP body) turned out to be. */
@Stability(Stability.Tier.EXPERIMENTAL)
public sealed interface Incoming {
  /**
   * One well-formed message.
   *
   * @param message the message
   */
  record Single(Message message) implements Incoming {
    /** Checks the field. */
    public Single {
      requireNonNull(message, "message");
    }
  }

  /**
   * A JSON array of messages; each element is a {@link Single} or an {@link Invalid}.
   *
   * @param items the elements, in order
   */
  record Batch(List<Incoming> items) implements Incoming {
    /** Copies the items. */
    public Batch {
      items = List.copyOf(items);
    }
  }

  /**
   * Input that is not a valid message, with the error response it deserves (id null when
   * unreadable). When the input was a notification the sender expects no answer, and
   * {@link #answerable()} is false.
   *
   * @param error the error response
   * @param answerable whether the input looked like a request, so that an answer is due
   */
  record Invalid(ErrorResponse error, boolean answerable) implements Incoming {
    /** Checks the field. */
    public Invalid {
      requireNonNull(error, "error");
    }
  }
}
