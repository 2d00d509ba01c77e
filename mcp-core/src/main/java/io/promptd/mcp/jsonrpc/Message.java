package io.promptd.mcp.jsonrpc;

import io.promptd.mcp.api.Stability;

/** A JSON-RPC message: a request, a notification, or a response to a request. */
@Stability(Stability.Tier.STABLE)
public sealed interface Message permits Request, Notification, Response {}
