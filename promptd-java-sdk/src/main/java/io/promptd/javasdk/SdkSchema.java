package io.promptd.javasdk;

import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** promptd's protocol records as the SDK's {@link McpSchema} ones, field for field. */
final class SdkSchema {
  private SdkSchema() {}

  static McpSchema.Prompt prompt(Prompt p) {
    List<McpSchema.PromptArgument> arguments = new ArrayList<>(p.arguments().size());
    for (PromptArgument a : p.arguments()) {
      arguments.add(
          new McpSchema.PromptArgument(a.name(), a.title(), a.description(), a.required()));
    }
    return new McpSchema.Prompt(
        p.name(), p.title(), p.description(), arguments, map(p.meta()), icons(p.icons()));
  }

  static McpSchema.GetPromptResult result(GetPromptResult r) {
    List<McpSchema.PromptMessage> messages = new ArrayList<>(r.messages().size());
    for (PromptMessage m : r.messages()) {
      messages.add(new McpSchema.PromptMessage(role(m.role()), content(m.content())));
    }
    return new McpSchema.GetPromptResult(r.description(), messages, map(r.meta()));
  }

  private static McpSchema.Role role(Role r) {
    return r == Role.USER ? McpSchema.Role.USER : McpSchema.Role.ASSISTANT;
  }

  static McpSchema.Content content(Content c) {
    return switch (c) {
      case TextContent t ->
        new McpSchema.TextContent(annotations(t.annotations()), t.text(), map(t.meta()));
      case ImageContent i ->
        new McpSchema.ImageContent(
            annotations(i.annotations()), i.data(), i.mimeType(), map(i.meta()));
      case AudioContent a ->
        new McpSchema.AudioContent(
            annotations(a.annotations()), a.data(), a.mimeType(), map(a.meta()));
      case EmbeddedResource e ->
        new McpSchema.EmbeddedResource(
            annotations(e.annotations()), contents(e.resource()), map(e.meta()));
      case ResourceLink l ->
        new McpSchema.ResourceLink(
            l.name(),
            l.title(),
            l.uri(),
            l.description(),
            l.mimeType(),
            l.size(),
            annotations(l.annotations()),
            map(l.meta()));
    };
  }

  /** A resource as the SDK lists it. */
  static McpSchema.Resource resource(Resource r) {
    return new McpSchema.Resource(
        r.uri(),
        r.name(),
        r.title(),
        r.description(),
        r.mimeType(),
        r.size(),
        annotations(r.annotations()),
        map(r.meta()),
        icons(r.icons()));
  }

  /** Icons as the SDK holds them: null for none. */
  private static @Nullable List<McpSchema.Icon> icons(List<Icon> icons) {
    if (icons.isEmpty()) {
      return null;
    }
    List<McpSchema.Icon> out = new ArrayList<>(icons.size());
    for (Icon i : icons) {
      out.add(new McpSchema.Icon(i.src(), i.mimeType(), i.sizes(), i.theme()));
    }
    return out;
  }

  static McpSchema.ResourceContents contents(ResourceContents r) {
    return switch (r) {
      case TextResourceContents t ->
        new McpSchema.TextResourceContents(t.uri(), t.mimeType(), t.text(), map(t.meta()));
      case BlobResourceContents b ->
        new McpSchema.BlobResourceContents(b.uri(), b.mimeType(), b.blob(), map(b.meta()));
    };
  }

  private static McpSchema.@Nullable Annotations annotations(@Nullable Annotations a) {
    if (a == null) {
      return null;
    }
    List<McpSchema.Role> audience = new ArrayList<>(a.audience().size());
    a.audience().forEach(r -> audience.add(role(r)));
    return new McpSchema.Annotations(
        audience.isEmpty() ? null : audience, a.priority(), a.lastModified());
  }

  /**
   * A JSON object as the plain maps, lists, strings, numbers and booleans the SDK's records hold;
   * null for null.
   */
  static @Nullable Map<String, Object> map(@Nullable JsonObject o) {
    if (o == null) {
      return null;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    o.members().forEach((k, v) -> out.put(k, plain(v)));
    return out;
  }

  private static @Nullable Object plain(Json v) {
    return switch (v) {
      case JsonObject o -> map(o);
      case JsonArray a -> {
        List<@Nullable Object> list = new ArrayList<>(a.elements().size());
        a.elements().forEach(e -> list.add(plain(e)));
        yield list;
      }
      case JsonString s -> s.value();
      case JsonNumber n -> n.isLong() ? (Object) n.longValue() : (Object) n.doubleValue();
      case JsonBoolean b -> b.value();
      case JsonNull n -> null;
    };
  }
}
