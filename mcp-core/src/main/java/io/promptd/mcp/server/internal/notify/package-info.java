/**
 * Internal: change notifications. The broadcaster (coalesced {@code list_changed}, log messages)
 * holds the channels of legacy sessions and the modern {@code subscriptions/listen} streams;
 * resource events and subscriptions feed it.
 */
@NullMarked
package io.promptd.mcp.server.internal.notify;

import org.jspecify.annotations.NullMarked;
