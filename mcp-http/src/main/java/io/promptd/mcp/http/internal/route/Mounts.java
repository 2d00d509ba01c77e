package io.promptd.mcp.http.internal.route;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.http.HttpMount;
import io.promptd.mcp.http.MountRequest;
import io.promptd.mcp.http.MountResponse;
import io.promptd.mcp.http.internal.auth.ResourceServer;
import io.promptd.mcp.http.internal.sse.SseTransportEndpoint;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The embedder's mounts of one listener, by path, checked as they are added; for
 * {@link io.promptd.mcp.http.HttpTransportBuilder}.
 */
public final class Mounts {
  private final String method;
  private final boolean mcpPort;
  private final Map<String, HttpMount> byPath = new LinkedHashMap<>();

  /**
   * @param method the builder method that adds them, for messages
   * @param mcpPort whether they are the MCP port's, where the old HTTP+SSE transport and the OAuth
   *     metadata live too
   */
  public Mounts(String method, boolean mcpPort) {
    this.method = method;
    this.mcpPort = mcpPort;
  }

  /**
   * Adds a mount; throws {@link IllegalArgumentException} when its path is not absolute, the
   * transport's, or taken.
   */
  public void add(String path, HttpMount mount) {
    requireNonNull(path, "HttpTransportBuilder." + method + ": path");
    requireNonNull(mount, "HttpTransportBuilder." + method + ": mount");
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder." + method + ": the path must start with '/', not '" + path + "'");
    }
    if (path.equals(Probes.HEALTHZ)
        || path.equals(Probes.READYZ)
        || (mcpPort
            && (path.equals(SseTransportEndpoint.STREAM_PATH)
                || path.equals(SseTransportEndpoint.MESSAGES_PATH)
                || path.startsWith(ResourceServer.METADATA_PATH)))) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder." + method + ": " + path + " is served by the" + " transport");
    }
    if (byPath.containsKey(path)) {
      throw new IllegalArgumentException(
          "HttpTransportBuilder." + method + ": " + path + " is mounted already");
    }
    byPath.put(path, mount);
  }

  /**
   * A mount served behind the MCP endpoint's authentication
   * ({@link io.promptd.mcp.http.HttpTransportBuilder#authenticatedMount}).
   */
  public record Authenticated(HttpMount inner) implements HttpMount {
    @Override
    public void serve(MountRequest request, MountResponse response) throws IOException {
      inner.serve(request, response);
    }
  }

  boolean has(String path) {
    return byPath.containsKey(path);
  }

  boolean isEmpty() {
    return byPath.isEmpty();
  }

  /** The mounts by path, in the order they were added. */
  public Map<String, HttpMount> byPath() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(byPath));
  }
}
