package io.promptd.mcp.wire;

import static io.promptd.mcp.protocol.ProtocolVersion.V2025_03_26;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;
import static io.promptd.mcp.wire.Fields.object;
import static io.promptd.mcp.wire.Fields.optional;
import static io.promptd.mcp.wire.Fields.required;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.TextContent;
import org.jspecify.annotations.Nullable;

/**
 * {@link Content} on the wire, told apart by {@code type}.
 *
 * <p>Content a version cannot express is translated, never dropped: a resource link before
 * 2025-06-18 becomes text naming the link; audio before 2025-03-26 becomes an embedded blob
 * resource ({@code urn:promptd:audio}).
 */
public final class ContentWire {
  private ContentWire() {}

  /** The content as {@code version} defines it, translated where that version has no such type. */
  public static JsonObject encode(Content content, ProtocolVersion version) {
    JsonObject.Builder b = JsonObject.builder();
    switch (content) {
      case TextContent t -> b.put("type", "text").put("text", t.text());
      case ImageContent i ->
        b.put("type", "image").put("data", i.data()).put("mimeType", i.mimeType());
      case AudioContent a -> {
        if (!version.atLeast(V2025_03_26)) {
          return encode(audioAsResource(a), version);
        }
        b.put("type", "audio").put("data", a.data()).put("mimeType", a.mimeType());
      }
      case EmbeddedResource r ->
        b.put("type", "resource")
            .put("resource", ResourceContentsWire.encode(r.resource(), version));
      case ResourceLink l -> {
        if (!version.atLeast(V2025_06_18)) {
          return encode(linkAsText(l), version);
        }
        b.put("type", "resource_link")
            .put("uri", l.uri())
            .put("name", l.name())
            .put("title", l.title());
        b.put("description", l.description()).put("mimeType", l.mimeType());
        Long size = l.size();
        if (size != null) {
          b.put("size", (long) size);
        }
      }
    }
    b.put("annotations", AnnotationsWire.encode(content.annotations(), version));
    if (version.atLeast(V2025_06_18)) {
      b.put("_meta", content.meta());
    }
    return b.build();
  }

  /** The content a JSON object holds; an unknown {@code type} is a {@link WireFormatException}. */
  public static Content decode(@Nullable Json json) {
    JsonObject o = object(json, "content");
    Annotations annotations = AnnotationsWire.decode(o.object("annotations").orElse(null));
    JsonObject meta = o.object("_meta").orElse(null);
    String type = required(o, "type");
    return switch (type) {
      case "text" -> new TextContent(required(o, "text"), annotations, meta);
      case "image" ->
        new ImageContent(required(o, "data"), required(o, "mimeType"), annotations, meta);
      case "audio" ->
        new AudioContent(required(o, "data"), required(o, "mimeType"), annotations, meta);
      case "resource" ->
        new EmbeddedResource(ResourceContentsWire.decode(o.get("resource")), annotations, meta);
      case "resource_link" ->
        new ResourceLink(
            required(o, "uri"),
            required(o, "name"),
            optional(o, "title"),
            optional(o, "description"),
            optional(o, "mimeType"),
            o.get("size") instanceof JsonNumber n && n.isLong() ? n.longValue() : null,
            annotations,
            meta);
      default -> throw new WireFormatException("unknown content type '" + type + "'");
    };
  }

  private static EmbeddedResource audioAsResource(AudioContent a) {
    return new EmbeddedResource(
        new BlobResourceContents("urn:promptd:audio", a.mimeType(), a.data(), null),
        a.annotations(),
        a.meta());
  }

  private static TextContent linkAsText(ResourceLink l) {
    StringBuilder text =
        new StringBuilder("Resource: ").append(l.title() != null ? l.title() : l.name());
    text.append(" <").append(l.uri()).append('>');
    if (l.description() != null) {
      text.append(" - ").append(l.description());
    }
    return new TextContent(text.toString(), l.annotations(), l.meta());
  }
}
