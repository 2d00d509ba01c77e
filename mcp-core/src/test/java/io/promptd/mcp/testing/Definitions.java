package io.promptd.mcp.testing;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Which schema definition describes what a server sends: results by request method, notifications
 * by method.
 */
final class Definitions {
  private static final Map<String, String> RESULTS = Map.ofEntries(
      Map.entry("initialize", "InitializeResult"),
      Map.entry("ping", "EmptyResult"),
      Map.entry("logging/setLevel", "EmptyResult"),
      Map.entry("server/discover", "DiscoverResult"),
      Map.entry("subscriptions/listen", "SubscriptionsListenResult"),
      Map.entry("prompts/list", "ListPromptsResult"),
      Map.entry("prompts/get", "GetPromptResult"),
      Map.entry("completion/complete", "CompleteResult"),
      Map.entry("resources/list", "ListResourcesResult"),
      Map.entry("resources/templates/list", "ListResourceTemplatesResult"),
      Map.entry("resources/read", "ReadResourceResult"),
      Map.entry("resources/subscribe", "EmptyResult"),
      Map.entry("resources/unsubscribe", "EmptyResult"),
      Map.entry("tools/list", "ListToolsResult"),
      Map.entry("tools/call", "CallToolResult"));

  private static final Map<String, String> REQUESTS = Map.ofEntries(
      Map.entry("initialize", "InitializeRequest"),
      Map.entry("ping", "PingRequest"),
      Map.entry("logging/setLevel", "SetLevelRequest"),
      Map.entry("server/discover", "DiscoverRequest"),
      Map.entry("subscriptions/listen", "SubscriptionsListenRequest"),
      Map.entry("prompts/list", "ListPromptsRequest"),
      Map.entry("prompts/get", "GetPromptRequest"),
      Map.entry("completion/complete", "CompleteRequest"),
      Map.entry("resources/list", "ListResourcesRequest"),
      Map.entry("resources/templates/list", "ListResourceTemplatesRequest"),
      Map.entry("resources/read", "ReadResourceRequest"),
      Map.entry("resources/subscribe", "SubscribeRequest"),
      Map.entry("resources/unsubscribe", "UnsubscribeRequest"),
      Map.entry("tools/list", "ListToolsRequest"),
      Map.entry("tools/call", "CallToolRequest"));

  private static final Map<String, String> NOTIFICATIONS = Map.ofEntries(
      Map.entry("notifications/initialized", "InitializedNotification"),
      Map.entry("notifications/roots/list_changed", "RootsListChangedNotification"),
      Map.entry("notifications/prompts/list_changed", "PromptListChangedNotification"),
      Map.entry("notifications/resources/list_changed", "ResourceListChangedNotification"),
      Map.entry("notifications/resources/updated", "ResourceUpdatedNotification"),
      Map.entry("notifications/tools/list_changed", "ToolListChangedNotification"),
      Map.entry(
          "notifications/subscriptions/acknowledged", "SubscriptionsAcknowledgedNotification"),
      Map.entry("notifications/cancelled", "CancelledNotification"),
      Map.entry("notifications/progress", "ProgressNotification"),
      Map.entry("notifications/message", "LoggingMessageNotification"));

  /** Error types the modern schema names by code. */
  private static final Map<Integer, String> MODERN_ERRORS = Map.of(
      -32700, "ParseError",
      -32600, "InvalidRequestError",
      -32601, "MethodNotFoundError",
      -32602, "InvalidParamsError",
      -32603, "InternalError",
      -32020, "HeaderMismatchError",
      -32021, "MissingRequiredClientCapabilityError",
      -32022, "UnsupportedProtocolVersionError");

  private Definitions() {}

  static @Nullable String result(String method) {
    return RESULTS.get(method);
  }

  static @Nullable String request(String method) {
    return REQUESTS.get(method);
  }

  static @Nullable String notification(String method) {
    return NOTIFICATIONS.get(method);
  }

  static @Nullable String modernError(int code) {
    return MODERN_ERRORS.get(code);
  }
}
