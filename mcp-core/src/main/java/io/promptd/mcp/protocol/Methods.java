package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;

/**
 * The JSON-RPC method names of the MCP methods and notifications promptd sends or serves, as they
 * appear on the wire: the one place the server's method table, the transports, the client and the
 * command line take them from.
 */
@Stability(Stability.Tier.STABLE)
public final class Methods {
  /** Opens a legacy session (2024-11-05 to 2025-11-25). */
  public static final String INITIALIZE = "initialize";
  /** A liveness check (legacy; removed in 2026-07-28). */
  public static final String PING = "ping";
  /** Describes a 2026-07-28 server: versions, capabilities, instructions. */
  public static final String SERVER_DISCOVER = "server/discover";
  /** Lists prompts, a page at a time. */
  public static final String PROMPTS_LIST = "prompts/list";
  /** Renders one prompt with arguments. */
  public static final String PROMPTS_GET = "prompts/get";
  /** Suggests values for a prompt argument or a resource template variable. */
  public static final String COMPLETION_COMPLETE = "completion/complete";
  /** Sets a legacy session's least severe log message (removed in 2026-07-28). */
  public static final String LOGGING_SET_LEVEL = "logging/setLevel";
  /** A 2026-07-28 stream of change notifications. */
  public static final String SUBSCRIPTIONS_LISTEN = "subscriptions/listen";
  /** Lists resources, a page at a time. */
  public static final String RESOURCES_LIST = "resources/list";
  /** Lists resource templates, a page at a time. */
  public static final String RESOURCES_TEMPLATES_LIST = "resources/templates/list";
  /** Reads one resource. */
  public static final String RESOURCES_READ = "resources/read";
  /** Subscribes a legacy session to one resource's updates. */
  public static final String RESOURCES_SUBSCRIBE = "resources/subscribe";
  /** Ends a legacy session's subscription to one resource. */
  public static final String RESOURCES_UNSUBSCRIBE = "resources/unsubscribe";
  /**
   * Lists the direct children of a directory resource (the Skills extension, with
   * {@code directoryRead}).
   */
  public static final String RESOURCES_DIRECTORY_READ = "resources/directory/read";
  /**
   * Lists the skills a server serves (the Skills extension,
   * {@code io.modelcontextprotocol/skills}).
   */
  public static final String SKILLS_LIST = "skills/list";
  /** Gets one skill's entry by the URI of its {@code SKILL.md} (the Skills extension). */
  public static final String SKILLS_GET = "skills/get";
  /** Lists tools (promptd's prompts offered as tools). */
  public static final String TOOLS_LIST = "tools/list";
  /** Calls a tool. */
  public static final String TOOLS_CALL = "tools/call";
  /** The server asks the client's user to fill a form (legacy sessions, 2025-06-18 and later). */
  public static final String ELICITATION_CREATE = "elicitation/create";

  /** The client finished initializing its legacy session. */
  public static final String NOTIFICATION_INITIALIZED = "notifications/initialized";
  /** Cancels a request in flight. */
  public static final String NOTIFICATION_CANCELLED = "notifications/cancelled";
  /** A log message from the server. */
  public static final String NOTIFICATION_MESSAGE = "notifications/message";
  /** Progress of a long request. */
  public static final String NOTIFICATION_PROGRESS = "notifications/progress";
  /** The prompt list changed. */
  public static final String NOTIFICATION_PROMPTS_LIST_CHANGED =
      "notifications/prompts/list_changed";
  /** The resource list changed. */
  public static final String NOTIFICATION_RESOURCES_LIST_CHANGED =
      "notifications/resources/list_changed";
  /** A subscribed resource changed. */
  public static final String NOTIFICATION_RESOURCES_UPDATED = "notifications/resources/updated";
  /** The client's roots changed. */
  public static final String NOTIFICATION_ROOTS_LIST_CHANGED = "notifications/roots/list_changed";
  /** The tool list changed. */
  public static final String NOTIFICATION_TOOLS_LIST_CHANGED = "notifications/tools/list_changed";
  /** A 2026-07-28 {@code subscriptions/listen} stream is open: what it will carry. */
  public static final String NOTIFICATION_SUBSCRIPTIONS_ACKNOWLEDGED =
      "notifications/subscriptions/acknowledged";

  private Methods() {}
}
