/**
 * What promptd's libraries promise about their public types: {@link io.promptd.mcp.api.Stability}.
 */
@NullMarked
package io.promptd.mcp.api;

import org.jspecify.annotations.NullMarked;
