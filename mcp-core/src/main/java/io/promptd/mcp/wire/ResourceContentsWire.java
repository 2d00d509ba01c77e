package io.promptd.mcp.wire;

import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;
import static io.promptd.mcp.wire.Fields.object;
import static io.promptd.mcp.wire.Fields.optional;
import static io.promptd.mcp.wire.Fields.required;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.TextResourceContents;
import org.jspecify.annotations.Nullable;

/**
 * {@link ResourceContents} on the wire: text or blob, told apart by which of the two fields is
 * present.
 */
public final class ResourceContentsWire {
  private ResourceContentsWire() {}

  /** The contents as {@code version} defines them. */
  public static JsonObject encode(ResourceContents rc, ProtocolVersion version) {
    JsonObject.Builder b = JsonObject.builder().put("uri", rc.uri()).put("mimeType", rc.mimeType());
    switch (rc) {
      case TextResourceContents t -> b.put("text", t.text());
      case BlobResourceContents bl -> b.put("blob", bl.blob());
    }
    if (version.atLeast(V2025_06_18)) {
      b.put("_meta", rc.meta());
    }
    return b.build();
  }

  /** The contents a JSON object holds: text when it has a string {@code text}, else a blob. */
  public static ResourceContents decode(@Nullable Json json) {
    JsonObject o = object(json, "resource");
    JsonObject meta = o.object("_meta").orElse(null);
    if (o.get("text") instanceof JsonString text) {
      return new TextResourceContents(
          required(o, "uri"), optional(o, "mimeType"), text.value(), meta);
    }
    return new BlobResourceContents(
        required(o, "uri"), optional(o, "mimeType"), required(o, "blob"), meta);
  }
}
