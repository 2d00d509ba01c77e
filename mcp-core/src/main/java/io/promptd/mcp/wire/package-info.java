/**
 * Internal to promptd: the JSON wire form of the protocol records, each record's encoder (as the
 * server writes it for one protocol version) beside its decoder (as the client reads it). Exported
 * only to promptd's client and SDK adapter modules, so that a new field or content type is written
 * in one place.
 */
@NullMarked
package io.promptd.mcp.wire;

import org.jspecify.annotations.NullMarked;
