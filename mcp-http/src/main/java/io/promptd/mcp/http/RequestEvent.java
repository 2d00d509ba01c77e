package io.promptd.mcp.http;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * One finished HTTP request on the MCP endpoint, for metrics and access logs: what it was and how
 * it ended, never what it carried (no arguments, no headers, no tokens).
 * {@link HttpTransportBuilder#onRequest} receives one per request; the health endpoints
 * ({@code /healthz}, {@code /readyz}) raise none. The transport makes them ({@link Builder});
 * listeners read them.
 */
@Stability(Stability.Tier.STABLE)
public final class RequestEvent {
  private final Instant time;
  private final Era era;
  private final String httpMethod;
  private final @Nullable String method;
  private final @Nullable String prompt;
  private final Outcome outcome;
  private final int status;
  private final OptionalInt errorCode;
  private final Duration duration;
  private final @Nullable String subject;
  private final Transport transport;

  private RequestEvent(Builder b) {
    this.time = requireNonNull(b.time, "time");
    this.era = requireNonNull(b.era, "era");
    this.httpMethod = requireNonNull(b.httpMethod, "httpMethod");
    this.method = b.method;
    this.prompt = b.prompt;
    this.outcome = requireNonNull(b.outcome, "outcome");
    this.status = b.status;
    this.errorCode = requireNonNull(b.errorCode, "errorCode");
    this.duration = requireNonNull(b.duration, "duration");
    this.subject = b.subject;
    this.transport = requireNonNull(b.transport, "transport");
  }

  /** A builder for the event of a request that arrived at {@code time} by {@code transport}. */
  static Builder builder(Instant time, Transport transport) {
    return new Builder(time, transport);
  }

  /** When the request arrived. */
  public Instant time() {
    return time;
  }

  /** The protocol era it was served in. */
  public Era era() {
    return era;
  }

  /** The HTTP method ({@code POST}, {@code GET}, {@code DELETE}, ...). */
  public String httpMethod() {
    return httpMethod;
  }

  /**
   * The MCP method of a single JSON-RPC message in the body, or null (a batch, an unreadable body,
   * a legacy {@code GET} stream or {@code DELETE}, a request refused before its body was read).
   */
  public @Nullable String method() {
    return method;
  }

  /**
   * The prompt a {@code prompts/get} or a {@code completion/complete} of a prompt argument named,
   * as the client sent it (it may name no prompt the server has), or null.
   */
  public @Nullable String prompt() {
    return prompt;
  }

  /** How it ended. */
  public Outcome outcome() {
    return outcome;
  }

  /** The HTTP status sent, or 0 when none was (the connection dropped first). */
  public int status() {
    return status;
  }

  /** The JSON-RPC error code of a single error response, if that was the answer. */
  public OptionalInt errorCode() {
    return errorCode;
  }

  /** From arrival until the response was written in full (for a stream: until it ended). */
  public Duration duration() {
    return duration;
  }

  /** The authenticated caller's subject, or null when no authorization is in force. */
  public @Nullable String subject() {
    return subject;
  }

  /** The HTTP transport that served it. */
  public Transport transport() {
    return transport;
  }

  @Override
  public String toString() {
    return "RequestEvent[" + httpMethod + " " + method + " " + outcome + " " + status + " "
        + transport + "]";
  }

  /** Collects an event's fields as the exchange learns them. */
  static final class Builder {
    private final Instant time;
    private final Transport transport;
    private Era era = Era.NONE;
    private String httpMethod = "";
    private @Nullable String method;
    private @Nullable String prompt;
    private Outcome outcome = Outcome.OK;
    private int status;
    private OptionalInt errorCode = OptionalInt.empty();
    private Duration duration = Duration.ZERO;
    private @Nullable String subject;

    private Builder(Instant time, Transport transport) {
      this.time = requireNonNull(time, "time");
      this.transport = requireNonNull(transport, "transport");
    }

    Builder request(String httpMethod, Era era, @Nullable String method, @Nullable String prompt) {
      this.httpMethod = requireNonNull(httpMethod, "httpMethod");
      this.era = requireNonNull(era, "era");
      this.method = method;
      this.prompt = prompt;
      return this;
    }

    Builder ended(Outcome outcome, int status, OptionalInt errorCode, Duration duration) {
      this.outcome = requireNonNull(outcome, "outcome");
      this.status = status;
      this.errorCode = requireNonNull(errorCode, "errorCode");
      this.duration = requireNonNull(duration, "duration");
      return this;
    }

    Builder subject(@Nullable String subject) {
      this.subject = subject;
      return this;
    }

    RequestEvent build() {
      return new RequestEvent(this);
    }
  }

  /** The HTTP transport a request came by. */
  public enum Transport {
    /** Streamable HTTP: the MCP endpoint ({@code /mcp}), in either era. */
    STREAMABLE_HTTP,
    /** The 2024-11-05 HTTP+SSE transport: {@code GET /sse} and {@code POST /messages}. */
    HTTP_SSE
  }

  /** The protocol era a request was served in. */
  public enum Era {
    /** 2024-11-05 to 2025-11-25: {@code initialize} sessions. */
    LEGACY,
    /** 2026-07-28: stateless requests. */
    MODERN,
    /** Not decided: refused before the era was known, or a body that is no JSON-RPC message. */
    NONE
  }

  /** How a request ended. */
  public enum Outcome {
    /**
     * Answered without error (a result, an accepted notification, a session ended, a stream that
     * ended cleanly).
     */
    OK,
    /** Answered with a JSON-RPC error. */
    ERROR,
    /**
     * Refused by the transport with an HTTP error status before the MCP server saw it (Host, token,
     * size, ...).
     */
    REFUSED,
    /**
     * Ended without an answer: cancelled by the client, or the connection dropped (the client went
     * away).
     */
    CANCELLED
  }
}
