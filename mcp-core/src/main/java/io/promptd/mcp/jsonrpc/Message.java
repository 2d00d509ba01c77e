package io.promptd.mcp.jsonrpc;

/** A JSON-RPC message: a request, a notification, or a response to a request. */
public sealed interface Message permits Request, Notification, Response {}
