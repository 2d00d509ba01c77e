package io.promptd.mcp.server.internal.method;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.util.List;

/**
 * The capabilities the server declares at {@code initialize} and {@code server/discover}: what each
 * {@link Feature} declares, in the order of the features, then {@code logging} where the era has
 * it.
 */
public final class Capabilities {
  private final List<Feature> features;

  public Capabilities(List<? extends Feature> features) {
    this.features = List.copyOf(features);
  }

  /**
   * The capabilities under {@code version}; {@code logging}: with {@code logging} (legacy
   * sessions).
   */
  public JsonObject of(ProtocolVersion version, boolean logging) {
    JsonObject.Builder b = JsonObject.builder();
    for (Feature feature : features) {
      feature.declare(b, version);
    }
    if (logging) {
      b.put("logging", JsonObject.EMPTY);
    }
    return b.build();
  }
}
