package io.promptd.mcp.http;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.time.Duration;

/**
 * What one caller may take of an {@link HttpTransport}, so that no caller can exhaust what the
 * others need: request size, sessions, connections, streams and the time a request's head and body
 * may take. {@link #DEFAULTS} suit a team server; change one with its {@code with…} method and pass
 * the result to {@link HttpTransportBuilder#limits(HttpLimits)}.
 *
 * @param maxBodyBytes the largest request body accepted; larger ones get 413
 * @param maxSessions how many legacy sessions may be open at once, for everyone together; more get
 *     503
 * @param maxSessionsPerCaller how many legacy sessions one caller may hold at once on each
 *     transport (Streamable HTTP and HTTP+SSE), below {@code maxSessions}. A caller is the access
 *     token's subject under OAuth, else the client's address (anonymous clients and a shared static
 *     token; behind a proxy, see {@link HttpTransportBuilder#trustedProxies}). A caller at its
 *     quota that opens another session loses its least recently used idle one, ended as if it had
 *     expired; when all of them are in use (a request or a stream open), the new one gets 429
 * @param maxConnectionsPerAddress how many connections one client address may hold open at once,
 *     loopback ones included; one more is closed as soon as it opens. Each listener counts its own;
 *     a trusted proxy is not limited
 * @param maxStreamsPerClient how many event streams one client may hold open at once: legacy GET
 *     streams, 2026-07-28 {@code subscriptions/listen} streams and HTTP+SSE streams together; one
 *     more is refused with 429. A client is its access token's subject, else its address (the
 *     forwarded one behind a trusted proxy)
 * @param requestHeaderTimeout how long a request's head (request line and headers) may take to
 *     arrive whole, from the connection's opening or from the first byte after the previous
 *     response; a connection past it is closed. Unlike the idle timeout, which every byte restarts,
 *     this bounds a client that trickles its headers
 * @param maxConnections how many connections the MCP listener holds open at once, for everyone
 *     together: at the limit it accepts no more until one closes (new ones wait in the system's
 *     queue), while those open are served as before. The admin listener is not counted, so that its
 *     probes still answer
 * @param minRequestDataRate the slowest a request body may arrive, in bytes per second on average
 *     since its head ended, once it has taken longer than {@code requestHeaderTimeout}: a
 *     connection trickling its body slower is closed. Like the head's deadline, this bounds a
 *     client that keeps a connection by sending a byte now and then
 */
@Stability(Stability.Tier.STABLE)
public record HttpLimits(
    int maxBodyBytes,
    int maxSessions,
    int maxSessionsPerCaller,
    int maxConnectionsPerAddress,
    int maxStreamsPerClient,
    Duration requestHeaderTimeout,
    int maxConnections,
    int minRequestDataRate) {

  /**
   * 4 MiB bodies; 10,000 sessions, 200 per caller (room for a team of a few dozen people, each with
   * a few clients, sharing one address — a static token, an office's NAT — while fifty such callers
   * are needed to reach the global limit); 256 connections per address; 32 streams per client; 20 s
   * for a request's head; 10,000 connections in all (as many as sessions: each HTTP+SSE session
   * holds one); bodies at 1 KiB/s at least.
   */
  public static final HttpLimits DEFAULTS =
      new HttpLimits(4 * 1024 * 1024, 10_000, 200, 256, 32, Duration.ofSeconds(20), 10_000, 1024);

  /**
   * Checks every limit.
   *
   * @throws IllegalArgumentException when a count is below 1 or the timeout is not positive
   */
  public HttpLimits {
    atLeastOne(maxBodyBytes, "maxBodyBytes");
    atLeastOne(maxSessions, "maxSessions");
    atLeastOne(maxSessionsPerCaller, "maxSessionsPerCaller");
    atLeastOne(maxConnectionsPerAddress, "maxConnectionsPerAddress");
    atLeastOne(maxStreamsPerClient, "maxStreamsPerClient");
    atLeastOne(maxConnections, "maxConnections");
    atLeastOne(minRequestDataRate, "minRequestDataRate");
    requireNonNull(requestHeaderTimeout, "requestHeaderTimeout");
    if (requestHeaderTimeout.isNegative() || requestHeaderTimeout.isZero()) {
      throw new IllegalArgumentException(
          "HttpLimits.requestHeaderTimeout: must be positive, not " + requestHeaderTimeout);
    }
  }

  /** These limits with another {@link #maxBodyBytes()}. */
  public HttpLimits withMaxBodyBytes(int max) {
    return new HttpLimits(
        max,
        maxSessions,
        maxSessionsPerCaller,
        maxConnectionsPerAddress,
        maxStreamsPerClient,
        requestHeaderTimeout,
        maxConnections,
        minRequestDataRate);
  }

  /** These limits with another {@link #maxSessions()}. */
  public HttpLimits withMaxSessions(int max) {
    return new HttpLimits(
        maxBodyBytes,
        max,
        maxSessionsPerCaller,
        maxConnectionsPerAddress,
        maxStreamsPerClient,
        requestHeaderTimeout,
        maxConnections,
        minRequestDataRate);
  }

  /** These limits with another {@link #maxSessionsPerCaller()}. */
  public HttpLimits withMaxSessionsPerCaller(int max) {
    return new HttpLimits(
        maxBodyBytes,
        maxSessions,
        max,
        maxConnectionsPerAddress,
        maxStreamsPerClient,
        requestHeaderTimeout,
        maxConnections,
        minRequestDataRate);
  }

  /** These limits with another {@link #maxConnectionsPerAddress()}. */
  public HttpLimits withMaxConnectionsPerAddress(int max) {
    return new HttpLimits(
        maxBodyBytes,
        maxSessions,
        maxSessionsPerCaller,
        max,
        maxStreamsPerClient,
        requestHeaderTimeout,
        maxConnections,
        minRequestDataRate);
  }

  /** These limits with another {@link #maxStreamsPerClient()}. */
  public HttpLimits withMaxStreamsPerClient(int max) {
    return new HttpLimits(
        maxBodyBytes,
        maxSessions,
        maxSessionsPerCaller,
        maxConnectionsPerAddress,
        max,
        requestHeaderTimeout,
        maxConnections,
        minRequestDataRate);
  }

  /** These limits with another {@link #requestHeaderTimeout()}. */
  public HttpLimits withRequestHeaderTimeout(Duration timeout) {
    return new HttpLimits(
        maxBodyBytes,
        maxSessions,
        maxSessionsPerCaller,
        maxConnectionsPerAddress,
        maxStreamsPerClient,
        timeout,
        maxConnections,
        minRequestDataRate);
  }

  /** These limits with another {@link #maxConnections()}. */
  public HttpLimits withMaxConnections(int max) {
    return new HttpLimits(
        maxBodyBytes,
        maxSessions,
        maxSessionsPerCaller,
        maxConnectionsPerAddress,
        maxStreamsPerClient,
        requestHeaderTimeout,
        max,
        minRequestDataRate);
  }

  /** These limits with another {@link #minRequestDataRate()}, in bytes per second. */
  public HttpLimits withMinRequestDataRate(int bytesPerSecond) {
    return new HttpLimits(
        maxBodyBytes,
        maxSessions,
        maxSessionsPerCaller,
        maxConnectionsPerAddress,
        maxStreamsPerClient,
        requestHeaderTimeout,
        maxConnections,
        bytesPerSecond);
  }

  private static void atLeastOne(int value, String name) {
    if (value < 1) {
      throw new IllegalArgumentException(
          "HttpLimits." + name + ": must be at least 1, not " + value);
    }
  }
}
