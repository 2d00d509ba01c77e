package io.promptd.mcp.client;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Reads protocol records out of server results, leniently where the spec allows (unknown fields are ignored) and
 * strictly where a field is required: a malformed result is a {@link MalformedResultException}.
 */
final class Decoder {
  private Decoder() {}

  static Prompt prompt(Json json) {
    JsonObject o = object(json, "prompt");
    List<PromptArgument> args = new ArrayList<>();
    for (Json a : o.array("arguments").orElse(JsonArray.EMPTY).elements()) {
      JsonObject arg = object(a, "prompt argument");
      args.add(new PromptArgument(
          required(arg, "name"),
          optional(arg, "title"),
          optional(arg, "description"),
          arg.get("required") instanceof JsonBoolean b && b.value()));
    }
    List<Icon> icons = new ArrayList<>();
    for (Json i : o.array("icons").orElse(JsonArray.EMPTY).elements()) {
      JsonObject icon = object(i, "icon");
      List<String> sizes = new ArrayList<>();
      for (Json s : icon.array("sizes").orElse(JsonArray.EMPTY).elements()) {
        if (s instanceof JsonString str) {
          sizes.add(str.value());
        }
      }
      String theme = optional(icon, "theme");
      icons.add(new Icon(
          required(icon, "src"),
          optional(icon, "mimeType"),
          sizes,
          "light".equals(theme) || "dark".equals(theme) ? theme : null));
    }
    return new Prompt(
        required(o, "name"),
        optional(o, "title"),
        optional(o, "description"),
        args,
        icons,
        o.object("_meta").orElse(null));
  }

  static GetPromptResult getPromptResult(JsonObject result) {
    List<PromptMessage> messages = new ArrayList<>();
    JsonArray raw = result
        .array("messages")
        .orElseThrow(() -> new MalformedResultException("result has no messages"));
    for (Json m : raw.elements()) {
      JsonObject message = object(m, "message");
      Role role = role(required(message, "role"));
      messages.add(new PromptMessage(role, content(message.get("content"))));
    }
    return new GetPromptResult(
        optional(result, "description"), messages, result.object("_meta").orElse(null));
  }

  static Completion completion(JsonObject result) {
    JsonObject c = result
        .object("completion")
        .orElseThrow(() -> new MalformedResultException("result has no completion"));
    List<String> values = new ArrayList<>();
    for (Json v : c.array("values").orElse(JsonArray.EMPTY).elements()) {
      if (v instanceof JsonString s && values.size() < Completion.MAX_VALUES) {
        values.add(s.value());
      }
    }
    Integer total =
        c.get("total") instanceof JsonNumber n && n.isLong() ? (int) n.longValue() : null;
    return new Completion(values, total, c.get("hasMore") instanceof JsonBoolean b && b.value());
  }

  static Content content(@Nullable Json json) {
    JsonObject o = object(json, "content");
    Annotations annotations = annotations(o.object("annotations").orElse(null));
    JsonObject meta = o.object("_meta").orElse(null);
    String type = required(o, "type");
    return switch (type) {
      case "text" -> new TextContent(required(o, "text"), annotations, meta);
      case "image" ->
        new ImageContent(required(o, "data"), required(o, "mimeType"), annotations, meta);
      case "audio" ->
        new AudioContent(required(o, "data"), required(o, "mimeType"), annotations, meta);
      case "resource" -> new EmbeddedResource(resource(o.get("resource")), annotations, meta);
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
      default -> throw new MalformedResultException("unknown content type '" + type + "'");
    };
  }

  private static ResourceContents resource(@Nullable Json json) {
    JsonObject o = object(json, "resource");
    JsonObject meta = o.object("_meta").orElse(null);
    if (o.get("text") instanceof JsonString text) {
      return new TextResourceContents(
          required(o, "uri"), optional(o, "mimeType"), text.value(), meta);
    }
    return new BlobResourceContents(
        required(o, "uri"), optional(o, "mimeType"), required(o, "blob"), meta);
  }

  private static @Nullable Annotations annotations(@Nullable JsonObject o) {
    if (o == null) {
      return null;
    }
    List<Role> audience = new ArrayList<>();
    for (Json r : o.array("audience").orElse(JsonArray.EMPTY).elements()) {
      if (r instanceof JsonString s) {
        audience.add(role(s.value()));
      }
    }
    Double priority = o.get("priority") instanceof JsonNumber n ? n.doubleValue() : null;
    if (priority != null && !(priority >= 0 && priority <= 1)) {
      priority = null;
    }
    return new Annotations(audience, priority, optional(o, "lastModified"));
  }

  private static Role role(String role) {
    try {
      return Role.valueOf(role.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new MalformedResultException("unknown role '" + role + "'");
    }
  }

  static JsonObject object(@Nullable Json json, String what) {
    if (json instanceof JsonObject o) {
      return o;
    }
    throw new MalformedResultException(what + " must be an object");
  }

  static String required(JsonObject o, String field) {
    return o.string(field)
        .orElseThrow(() -> new MalformedResultException("missing string \"" + field + "\""));
  }

  static @Nullable String optional(JsonObject o, String field) {
    return o.string(field).orElse(null);
  }
}
