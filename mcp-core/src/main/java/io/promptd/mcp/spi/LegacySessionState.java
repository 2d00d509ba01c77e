package io.promptd.mcp.spi;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a legacy session holds, as a value: what its {@code initialize} established, and what it
 * changed since. A transport that spreads one session over several processes saves it after a
 * request and restores it elsewhere with {@link ServerSession#restore}.
 *
 * @param version the negotiated protocol version (a legacy one)
 * @param clientCapabilities the capabilities the client declared
 * @param clientInfo the client's name and version, or null when it sent none
 * @param logLevel the least severe log message the client wants ({@code logging/setLevel})
 * @param subscriptions the resource URIs the client subscribed to ({@code resources/subscribe})
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record LegacySessionState(
    ProtocolVersion version,
    JsonObject clientCapabilities,
    @Nullable Implementation clientInfo,
    LoggingLevel logLevel,
    Set<String> subscriptions) {
  /** Checks the fields and copies the subscriptions. */
  public LegacySessionState {
    requireNonNull(version, "version");
    requireNonNull(clientCapabilities, "clientCapabilities");
    requireNonNull(logLevel, "logLevel");
    subscriptions = Set.copyOf(requireNonNull(subscriptions, "subscriptions"));
    if (version.isModern()) {
      throw new IllegalArgumentException(
          "LegacySessionState: " + version.id() + " is not a legacy version");
    }
  }
}
