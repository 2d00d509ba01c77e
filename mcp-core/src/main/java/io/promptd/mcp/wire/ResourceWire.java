package io.promptd.mcp.wire;

import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_11_25;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceTemplate;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** {@link Resource} and {@link ResourceTemplate} on the wire, as the server lists them. */
public final class ResourceWire {
  private ResourceWire() {}

  /** The resource as {@code version} defines it. */
  public static JsonObject encode(Resource r, ProtocolVersion version) {
    JsonObject.Builder b = JsonObject.builder().put("uri", r.uri()).put("name", r.name());
    described(b, r.title(), r.description(), r.mimeType(), version);
    Long size = r.size();
    if (size != null) {
      b.put("size", (long) size);
    }
    return decorated(b, r.annotations(), r.icons(), r.meta(), version);
  }

  /** The template as {@code version} defines it. */
  public static JsonObject encode(ResourceTemplate t, ProtocolVersion version) {
    JsonObject.Builder b =
        JsonObject.builder().put("uriTemplate", t.uriTemplate()).put("name", t.name());
    described(b, t.title(), t.description(), t.mimeType(), version);
    return decorated(b, t.annotations(), t.icons(), t.meta(), version);
  }

  private static void described(
      JsonObject.Builder b,
      @Nullable String title,
      @Nullable String description,
      @Nullable String mimeType,
      ProtocolVersion version) {
    if (version.atLeast(V2025_06_18)) {
      b.put("title", title);
    }
    b.put("description", description).put("mimeType", mimeType);
  }

  private static JsonObject decorated(
      JsonObject.Builder b,
      @Nullable Annotations annotations,
      List<Icon> icons,
      @Nullable JsonObject meta,
      ProtocolVersion version) {
    b.put("annotations", AnnotationsWire.encode(annotations, version));
    if (version.atLeast(V2025_11_25) && !icons.isEmpty()) {
      b.put("icons", IconWire.encode(icons));
    }
    if (version.atLeast(V2025_06_18)) {
      b.put("_meta", meta);
    }
    return b.build();
  }
}
