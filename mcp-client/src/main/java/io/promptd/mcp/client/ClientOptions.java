package io.promptd.mcp.client;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.protocol.Implementation;
import java.time.Duration;

/**
 * How a client behaves.
 *
 * @param clientInfo the name and version the client reports
 * @param timeout how long to wait for each response before cancelling the request
 * @param probeTimeout how long the stdio era probe ({@code server/discover}) waits before assuming a legacy server
 */
public record ClientOptions(Implementation clientInfo, Duration timeout, Duration probeTimeout) {
  /** Checks the fields. */
  public ClientOptions {
    requireNonNull(clientInfo, "clientInfo");
    requireNonNull(timeout, "timeout");
    requireNonNull(probeTimeout, "probeTimeout");
  }

  /** promptd's identity, 30 s per request, 5 s for the probe. */
  public static ClientOptions defaults() {
    return new ClientOptions(new Implementation("promptd-client", null, "0.1.0"), Duration.ofSeconds(30),
        Duration.ofSeconds(5));
  }

  /** These options with another per-request timeout. */
  public ClientOptions withTimeout(Duration timeout) {
    return new ClientOptions(clientInfo, timeout, probeTimeout);
  }
}
