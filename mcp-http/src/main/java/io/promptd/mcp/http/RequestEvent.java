package io.promptd.mcp.http;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * One finished HTTP request on the MCP endpoint, for metrics and access logs: what it was and how it ended, never what
 * it carried (no arguments, no headers, no tokens). {@link HttpTransportBuilder#onRequest} receives one per request;
 * the health endpoints ({@code /healthz}, {@code /readyz}) raise none.
 *
 * @param time when the request arrived
 * @param era the protocol era it was served in
 * @param httpMethod the HTTP method ({@code POST}, {@code GET}, {@code DELETE}, ...)
 * @param method the MCP method of a single JSON-RPC message in the body, or null (a batch, an unreadable body, a
 *     legacy {@code GET} stream or {@code DELETE}, a request refused before its body was read)
 * @param prompt the prompt a {@code prompts/get} or a {@code completion/complete} of a prompt argument named, as the
 *     client sent it (it may name no prompt the server has), or null
 * @param outcome how it ended
 * @param status the HTTP status sent, or 0 when none was (the connection dropped first)
 * @param errorCode the JSON-RPC error code of a single error response, if that was the answer
 * @param duration from arrival until the response was written in full (for a stream: until it ended)
 * @param subject the authenticated caller's subject, or null when no authorization is in force
 * @param transport the HTTP transport that served it
 */
public record RequestEvent(
    Instant time,
    Era era,
    String httpMethod,
    @Nullable String method,
    @Nullable String prompt,
    Outcome outcome,
    int status,
    OptionalInt errorCode,
    Duration duration,
    @Nullable String subject,
    Transport transport) {
  /** Checks the fields. */
  public RequestEvent {
    requireNonNull(transport, "transport");
    requireNonNull(time, "time");
    requireNonNull(era, "era");
    requireNonNull(httpMethod, "httpMethod");
    requireNonNull(outcome, "outcome");
    requireNonNull(errorCode, "errorCode");
    requireNonNull(duration, "duration");
  }

  /** A request served by Streamable HTTP, as every request was before the HTTP+SSE transport was served. */
  public RequestEvent(Instant time, Era era, String httpMethod, @Nullable String method, @Nullable String prompt,
      Outcome outcome, int status, OptionalInt errorCode, Duration duration, @Nullable String subject) {
    this(time, era, httpMethod, method, prompt, outcome, status, errorCode, duration, subject,
        Transport.STREAMABLE_HTTP);
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
    /** Answered without error (a result, an accepted notification, a session ended, a stream that ended cleanly). */
    OK,
    /** Answered with a JSON-RPC error. */
    ERROR,
    /** Refused by the transport with an HTTP error status before the MCP server saw it (Host, token, size, ...). */
    REFUSED,
    /** Ended without an answer: cancelled by the client, or the connection dropped (the client went away). */
    CANCELLED
  }
}
