package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.json.JsonObject;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * What a server knows about one MCP method it takes, read from its method table ({@link McpServer#methods()}): the
 * name, the eras it exists in, whether it is a notification, the parameter a modern request's {@code Mcp-Name} header
 * repeats, and the prompt a request names. Transports and metrics read these facts here instead of keeping lists of
 * their own.
 */
public final class ServedMethod {
  private final String name;
  private final boolean legacy;
  private final boolean modern;
  private final boolean notification;
  private final @Nullable String nameField;
  private final Function<JsonObject, @Nullable String> prompt;

  ServedMethod(
      String name,
      boolean legacy,
      boolean modern,
      boolean notification,
      @Nullable String nameField,
      Function<JsonObject, @Nullable String> prompt) {
    this.name = requireNonNull(name, "name");
    this.legacy = legacy;
    this.modern = modern;
    this.notification = notification;
    this.nameField = nameField;
    this.prompt = requireNonNull(prompt, "prompt");
  }

  /** The method's name, such as {@code prompts/get}. */
  public String name() {
    return name;
  }

  /** Whether {@code initialize} sessions (2024-11-05 to 2025-11-25) have it. */
  public boolean legacy() {
    return legacy;
  }

  /** Whether stateless requests (2026-07-28) have it. */
  public boolean modern() {
    return modern;
  }

  /** Whether it is a notification the client sends, not a request. */
  public boolean notification() {
    return notification;
  }

  /**
   * The parameter whose value a modern request's {@code Mcp-Name} header must repeat ({@code name} or {@code uri}), or
   * null when the method names nothing.
   */
  public @Nullable String nameField() {
    return nameField;
  }

  /**
   * The prompt a request of this method with {@code params} names (a {@code prompts/get}'s name, a prompt argument's
   * {@code completion/complete} reference), or null.
   */
  public @Nullable String prompt(JsonObject params) {
    return prompt.apply(requireNonNull(params, "params"));
  }

  @Override
  public String toString() {
    return "ServedMethod[" + name + "]";
  }
}
