/**
 * Internal: the method table. Every method the server serves is a row a {@code Feature} registers;
 * both eras look requests up here and hand the handler a {@code MethodCall} with their
 * {@code EraRules}; the features' declared capabilities are joined here.
 */
@NullMarked
package io.promptd.mcp.server.internal.method;

import org.jspecify.annotations.NullMarked;
