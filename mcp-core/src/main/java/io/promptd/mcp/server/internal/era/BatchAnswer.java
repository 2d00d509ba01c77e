package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.Wire;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The answer to one JSON-RPC batch as it is built, bounded in bytes: once the responses added so
 * far passed the bound it is {@linkplain #full() full}, and the requests left get {@link #notRun}
 * instead of being run, so that a batch of cheap requests with large answers cannot make the server
 * hold an answer of any size.
 */
final class BatchAnswer {
  private final int maxBytes;
  private final @Nullable ProtocolVersion version;
  private final List<Response> responses = new ArrayList<>();

  /** The encoded size so far: the brackets, the responses and the commas between them. */
  private long bytes = 2;

  BatchAnswer(int maxBytes, @Nullable ProtocolVersion version) {
    this.maxBytes = maxBytes;
    this.version = version;
  }

  /**
   * Adds a response, counting its encoded size (the answer is encoded again when sent: batches are
   * rare).
   */
  void add(Response response) {
    bytes += Wire.encode(response, version, false).length + (responses.isEmpty() ? 0 : 1);
    responses.add(response);
  }

  /** Whether the responses added so far passed the bound: no more requests are run. */
  boolean full() {
    return bytes > maxBytes;
  }

  /** The error a request left over in a full answer gets. */
  ErrorResponse notRun(RequestId id) {
    return new ErrorResponse(
        id,
        ErrorCodes.INVALID_REQUEST,
        "Invalid request: not run: the batch's answers passed " + maxBytes
            + " bytes; send this request again on its own or in a smaller batch",
        null);
  }

  /** The reply to send. */
  Reply reply() {
    return Reply.batch(responses, version);
  }
}
