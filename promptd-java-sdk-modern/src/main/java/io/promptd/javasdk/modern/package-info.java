/**
 * promptd's prompts on a server built with the official MCP Java SDK's 2026-07-28 stack
 * ({@code io.modelcontextprotocol.modern}, SDK 2.2 and later):
 * {@link io.promptd.javasdk.modern.SdkModernPrompts} answers the SDK's {@code prompts/list},
 * {@code prompts/get} and {@code completion/complete} with promptd's own server, so that pages,
 * cursors, cache hints, argument checks and forms are promptd's, and the SDK carries them.
 */
@NullMarked
package io.promptd.javasdk.modern;

import org.jspecify.annotations.NullMarked;
