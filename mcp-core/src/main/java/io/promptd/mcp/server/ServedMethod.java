package io.promptd.mcp.server;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * What a server knows about one MCP method it takes, read from its method table
 * ({@link McpServer#methods()}): the name, the eras it exists in, whether it is a notification, the
 * parameter a modern request's {@code Mcp-Name} header repeats, and the prompt a request names.
 * Transports and metrics read these facts here instead of keeping lists of their own.
 */
@Stability(Stability.Tier.STABLE)
public interface ServedMethod {
  /** The method's name, such as {@code prompts/get}. */
  String name();

  /** Whether {@code initialize} sessions (2024-11-05 to 2025-11-25) have it. */
  boolean legacy();

  /** Whether stateless requests (2026-07-28) have it. */
  boolean modern();

  /** Whether it is a notification the client sends, not a request. */
  boolean notification();

  /**
   * The parameter whose value a modern request's {@code Mcp-Name} header must repeat ({@code name}
   * or {@code uri}), or null when the method names nothing.
   */
  @Nullable
  String nameField();

  /**
   * The prompt a request of this method with {@code params} names (a {@code prompts/get}'s name, a
   * prompt argument's {@code completion/complete} reference), or null.
   */
  @Nullable
  String prompt(JsonObject params);
}
