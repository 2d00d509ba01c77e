package io.promptd.mcp.server.internal.state;

import static io.promptd.mcp.protocol.ProtocolVersion.V2025_03_26;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_11_25;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Annotations;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Encodes protocol records for one negotiated version, emitting only the fields that version's schema defines.
 *
 * <p>Content a version cannot express is translated, never dropped: a resource link before 2025-06-18 becomes text
 * naming the link; audio before 2025-03-26 becomes an embedded blob resource ({@code urn:promptd:audio}).
 */
public final class Encoder {
  private final ProtocolVersion version;

  public Encoder(ProtocolVersion version) {
    this.version = version;
  }

  public JsonObject prompt(Prompt p) {
    JsonObject.Builder b = JsonObject.builder().put("name", p.name());
    if (version.atLeast(V2025_06_18)) {
      b.put("title", p.title());
    }
    b.put("description", p.description());
    if (!p.arguments().isEmpty()) {
      List<Json> args = new ArrayList<>(p.arguments().size());
      for (PromptArgument a : p.arguments()) {
        args.add(argument(a));
      }
      b.put("arguments", new JsonArray(args));
    }
    if (version.atLeast(V2025_11_25) && !p.icons().isEmpty()) {
      b.put("icons", icons(p.icons()));
    }
    if (version.atLeast(V2025_06_18)) {
      b.put("_meta", p.meta());
    }
    return b.build();
  }

  private JsonObject argument(PromptArgument a) {
    JsonObject.Builder b = JsonObject.builder().put("name", a.name());
    if (version.atLeast(V2025_06_18)) {
      b.put("title", a.title());
    }
    b.put("description", a.description());
    if (a.required()) {
      b.put("required", true);
    }
    return b.build();
  }

  JsonArray icons(List<Icon> icons) {
    List<Json> out = new ArrayList<>(icons.size());
    for (Icon i : icons) {
      JsonObject.Builder b = JsonObject.builder().put("src", i.src()).put("mimeType", i.mimeType());
      if (!i.sizes().isEmpty()) {
        b.put("sizes", JsonArray.ofStrings(i.sizes()));
      }
      out.add(b.put("theme", i.theme()).build());
    }
    return new JsonArray(out);
  }

  public JsonObject implementation(Implementation impl) {
    JsonObject.Builder b = JsonObject.builder().put("name", impl.name());
    if (version.atLeast(V2025_06_18)) {
      b.put("title", impl.title());
    }
    return b.put("version", impl.version()).build();
  }

  public JsonObject getPromptResult(GetPromptResult r) {
    List<Json> messages = new ArrayList<>(r.messages().size());
    for (PromptMessage m : r.messages()) {
      messages.add(JsonObject.builder()
          .put("role", m.role().id())
          .put("content", content(m.content()))
          .build());
    }
    return JsonObject.builder()
        .put("description", r.description())
        .put("messages", new JsonArray(messages))
        .put("_meta", r.meta())
        .build();
  }

  public JsonObject completion(Completion c) {
    JsonObject.Builder b = JsonObject.builder().put("values", JsonArray.ofStrings(c.values()));
    Integer total = c.total();
    if (total != null) {
      b.put("total", (long) total);
    }
    return JsonObject.builder()
        .put("completion", b.put("hasMore", c.hasMore()).build())
        .build();
  }

  JsonObject content(Content content) {
    JsonObject.Builder b = JsonObject.builder();
    switch (content) {
      case TextContent t -> b.put("type", "text").put("text", t.text());
      case ImageContent i ->
        b.put("type", "image").put("data", i.data()).put("mimeType", i.mimeType());
      case AudioContent a -> {
        if (!version.atLeast(V2025_03_26)) {
          return content(audioAsResource(a));
        }
        b.put("type", "audio").put("data", a.data()).put("mimeType", a.mimeType());
      }
      case EmbeddedResource r ->
        b.put("type", "resource").put("resource", resourceContents(r.resource()));
      case ResourceLink l -> {
        if (!version.atLeast(V2025_06_18)) {
          return content(linkAsText(l));
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
    b.put("annotations", annotations(content.annotations()));
    if (version.atLeast(V2025_06_18)) {
      b.put("_meta", content.meta());
    }
    return b.build();
  }

  public JsonObject resourceContents(ResourceContents rc) {
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

  public JsonObject resource(Resource r) {
    JsonObject.Builder b = JsonObject.builder().put("uri", r.uri()).put("name", r.name());
    described(b, r.title(), r.description(), r.mimeType());
    Long size = r.size();
    if (size != null) {
      b.put("size", (long) size);
    }
    return decorated(b, r.annotations(), r.icons(), r.meta());
  }

  public JsonObject resourceTemplate(ResourceTemplate t) {
    JsonObject.Builder b =
        JsonObject.builder().put("uriTemplate", t.uriTemplate()).put("name", t.name());
    described(b, t.title(), t.description(), t.mimeType());
    return decorated(b, t.annotations(), t.icons(), t.meta());
  }

  private void described(
      JsonObject.Builder b,
      @Nullable String title,
      @Nullable String description,
      @Nullable String mimeType) {
    if (version.atLeast(V2025_06_18)) {
      b.put("title", title);
    }
    b.put("description", description).put("mimeType", mimeType);
  }

  private JsonObject decorated(
      JsonObject.Builder b,
      @Nullable Annotations annotations,
      List<Icon> icons,
      @Nullable JsonObject meta) {
    b.put("annotations", annotations(annotations));
    if (version.atLeast(V2025_11_25) && !icons.isEmpty()) {
      b.put("icons", icons(icons));
    }
    if (version.atLeast(V2025_06_18)) {
      b.put("_meta", meta);
    }
    return b.build();
  }

  private @Nullable JsonObject annotations(@Nullable Annotations a) {
    if (a == null) {
      return null;
    }
    JsonObject.Builder b = JsonObject.builder();
    if (!a.audience().isEmpty()) {
      b.put("audience", JsonArray.ofStrings(a.audience().stream().map(Role::id).toList()));
    }
    Double priority = a.priority();
    if (priority != null) {
      b.put("priority", Json.of(priority.doubleValue()));
    }
    if (version.atLeast(V2025_06_18)) {
      b.put("lastModified", a.lastModified());
    }
    JsonObject out = b.build();
    return out.isEmpty() ? null : out;
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
