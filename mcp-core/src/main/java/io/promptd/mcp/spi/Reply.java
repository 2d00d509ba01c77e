package io.promptd.mcp.spi;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.nio.ByteBuffer;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a transport writes in answer to one unit of input, decided by the core: nothing, one
 * response, or a batch of responses, with a {@link Hint} that an HTTP transport turns into a
 * status. Encoding applies {@link Wire}'s null-id policy for the version in force.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class Reply {
  private static final Reply ACCEPTED = new Reply(Hint.ACCEPTED, List.of(), false, false, null);
  private static final Reply CANCELLED = new Reply(Hint.CANCELLED, List.of(), false, false, null);

  /** How the input fared, for transports that report it beside the body (HTTP status codes). */
  public enum Hint {
    /** Answered (HTTP 200), errors included where the era answers them with 200. */
    ANSWERED,
    /** Taken, nothing to answer: a notification or a response (HTTP 202). */
    ACCEPTED,
    /** Cancelled by the client, which expects no answer (HTTP 204). */
    CANCELLED,
    /** Malformed or refused input (HTTP 400). */
    REJECTED,
    /** A stateless request for a method the server does not have (HTTP 404). */
    UNKNOWN_METHOD
  }

  private final Hint hint;
  private final List<Response> responses;
  private final boolean batch;
  private final boolean silent;
  private final @Nullable ProtocolVersion version;

  private Reply(
      Hint hint,
      List<Response> responses,
      boolean batch,
      boolean silent,
      @Nullable ProtocolVersion version) {
    this.hint = hint;
    this.responses = responses;
    this.batch = batch;
    this.silent = silent;
    this.version = version;
  }

  /** Nothing to answer: the input was a notification or a response. */
  public static Reply accepted() {
    return ACCEPTED;
  }

  /** Nothing to answer: the request was cancelled. */
  public static Reply cancelled() {
    return CANCELLED;
  }

  /** One response, sent under {@code version} (null: none negotiated yet). */
  public static Reply of(Response response, Hint hint, @Nullable ProtocolVersion version) {
    return new Reply(
        requireNonNull(hint, "hint"),
        List.of(requireNonNull(response, "response")),
        false,
        false,
        version);
  }

  /** The responses to a batch, sent together as one array; none: {@link #accepted()}. */
  public static Reply batch(List<Response> responses, @Nullable ProtocolVersion version) {
    return responses.isEmpty()
        ? ACCEPTED
        : new Reply(Hint.ANSWERED, List.copyOf(responses), true, false, version);
  }

  /**
   * Input refused with {@code error}. When the input was a notification ({@code owed} false) its
   * sender expects no answer: a stream transport writes nothing, while HTTP still sends the error
   * with its status.
   */
  public static Reply rejected(
      ErrorResponse error, boolean owed, @Nullable ProtocolVersion version) {
    return new Reply(Hint.REJECTED, List.of(requireNonNull(error, "error")), false, !owed, version);
  }

  /** How the input fared. */
  public Hint hint() {
    return hint;
  }

  /**
   * Whether there is a body to send on a channel that must answer every input (an HTTP response).
   */
  public boolean hasBody() {
    return !responses.isEmpty();
  }

  /** Whether a stream transport (stdio) writes anything: a body the client expects. */
  public boolean due() {
    return !responses.isEmpty() && !silent;
  }

  /** The single response, or null when there is none or this is a batch. */
  public @Nullable Response response() {
    return responses.size() == 1 && !batch ? responses.get(0) : null;
  }

  /**
   * The body as UTF-8 JSON: one message, or an array for a batch.
   *
   * @param newline whether to end it with {@code '\n'} (a stdio line)
   * @throws IllegalStateException when there is no body
   */
  public byte[] encode(boolean newline) {
    if (responses.isEmpty()) {
      throw new IllegalStateException("Reply.encode: nothing to write (" + hint + ")");
    }
    return batch
        ? Wire.encodeBatch(responses, version, newline)
        : Wire.encode(responses.get(0), version, newline);
  }

  /**
   * The body as {@link #encode} gives it, in a buffer (from its position to its limit) over the
   * encoder's own array: no copy, for a transport that writes it once.
   *
   * @throws IllegalStateException when there is no body
   */
  public ByteBuffer encodeBuffer(boolean newline) {
    if (responses.isEmpty()) {
      throw new IllegalStateException("Reply.encodeBuffer: nothing to write (" + hint + ")");
    }
    if (batch) {
      return ByteBuffer.wrap(Wire.encodeBatch(responses, version, newline));
    }
    return JsonCodec.writeBuffer(Wire.toJson(responses.get(0), version), newline);
  }

  @Override
  public String toString() {
    return "Reply[" + hint + ", " + responses.size() + (batch ? " in a batch" : "") + "]";
  }
}
