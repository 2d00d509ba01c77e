package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.protocol.SkillResource;
import io.promptd.mcp.server.SkillProvider;
import io.promptd.mcp.server.internal.method.Feature;
import io.promptd.mcp.server.internal.method.MethodCall;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.method.MethodTable.Era;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.wire.Encoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code skills/list} and {@code skills/get} of the Skills extension
 * ({@code io.modelcontextprotocol/skills}), for 2026-07-28 only: the extension is specified against
 * that revision, and only its capabilities have a place ({@code extensions}) to declare it. Without
 * a {@link SkillProvider} both methods are "method not found".
 */
public final class SkillsFeature implements Feature {
  /** The extension's identifier, its key under {@code capabilities.extensions}. */
  static final String EXTENSION = "io.modelcontextprotocol/skills";

  private final ServerContext context;

  public SkillsFeature(ServerContext context) {
    this.context = context;
  }

  @Override
  public void declare(JsonObject.Builder capabilities, ProtocolVersion version) {
    SkillProvider skills = context.skills;
    if (skills != null && version.isModern()) {
      // Only the 2026-07-28 schema has "extensions"; legacy clients see skill files as plain
      // resources.
      capabilities.put(
          "extensions",
          JsonObject.builder()
              .put(
                  EXTENSION,
                  skills.directoryRead()
                      ? JsonObject.builder().put("directoryRead", true).build()
                      : JsonObject.EMPTY)
              .build());
    }
  }

  @Override
  public void register(MethodTable.Builder table) {
    table.add(Methods.SKILLS_LIST, Set.of(Era.MODERN), MethodTable.Blocking.NEVER, this::list);
    table.add(Methods.SKILLS_GET, Set.of(Era.MODERN), MethodTable.Blocking.NEVER, this::get);
    table.add(
        Methods.RESOURCES_DIRECTORY_READ,
        Set.of(Era.MODERN),
        MethodTable.Blocking.NEVER,
        this::directory);
  }

  /**
   * {@code resources/directory/read}: unknown unless the provider reads directories (it declares
   * so).
   */
  private JsonObject.Builder directory(MethodCall call) {
    SkillProvider provider = context.skills;
    if (provider == null || !provider.directoryRead()) {
      throw McpException.methodNotFound(call.request().method());
    }
    String uri = call.params()
        .string("uri")
        .orElseThrow(() -> McpException.invalidParams(
            "Invalid params: \"uri\" must be a string naming a directory resource"));
    List<Resource> children = provider
        .children(uri, call.caller())
        .orElseThrow(() -> new McpException(
            ErrorCodes.INVALID_PARAMS,
            "Not a directory resource: " + uri,
            JsonObject.builder().put("uri", uri).build()));
    Encoder encoder = call.encoder();
    // The extension's result type has no caching hints, but they harm nothing and the TypeScript
    // SDK's SkillsClient (2.4.0) refuses a directory listing without them.
    return hinted(
        call,
        ResourcesFeature.page(
            context.cursors,
            context.pageSize,
            children,
            call.params(),
            "resources",
            "directory " + uri,
            encoder::resource));
  }

  private JsonObject.Builder list(MethodCall call) {
    SkillProvider provider = provider(call);
    Caller caller = call.caller();
    List<Skill> all = provider.skills();
    if (!caller.unrestricted()) {
      all = all.stream().filter(s -> provider.visible(caller, s.uri())).toList();
    }
    return hinted(
        call,
        ResourcesFeature.page(
            context.cursors,
            context.pageSize,
            all,
            call.params(),
            "skills",
            "skills",
            SkillsFeature::encode));
  }

  private JsonObject.Builder get(MethodCall call) {
    SkillProvider provider = provider(call);
    Caller caller = call.caller();
    String uri = call.params()
        .string("uri")
        .orElseThrow(() -> McpException.invalidParams(
            "Invalid params: \"uri\" must be a string naming a skill's SKILL.md"));
    // A skill the caller may not see is unknown, exactly as a URI no skill has.
    Skill skill = provider.skills().stream()
        .filter(s -> s.uri().equals(uri))
        .filter(s -> caller.unrestricted() || provider.visible(caller, uri))
        .findFirst()
        .orElseThrow(() -> new McpException(
            ErrorCodes.INVALID_PARAMS,
            "Unknown skill: " + uri,
            JsonObject.builder().put("uri", uri).build()));
    return hinted(call, JsonObject.builder().put("skill", encode(skill)));
  }

  private JsonObject.Builder hinted(MethodCall call, JsonObject.Builder result) {
    return result.put("ttlMs", context.listTtl.toMillis()).put("cacheScope", call.cacheScope());
  }

  private SkillProvider provider(MethodCall call) {
    SkillProvider provider = context.skills;
    if (provider == null) {
      throw McpException.methodNotFound(call.request().method());
    }
    return provider;
  }

  /**
   * A skill entry as the extension spells it: {@code resources} is the manifest, or
   * {@code "dynamic"}.
   */
  static JsonObject encode(Skill skill) {
    JsonObject.Builder b =
        JsonObject.builder().put("uri", skill.uri()).put("frontmatter", skill.frontmatter());
    List<SkillResource> files = skill.resources();
    if (files == null) {
      b.put("resources", new JsonString("dynamic"));
    } else {
      List<Json> entries = new ArrayList<>(files.size());
      for (SkillResource f : files) {
        entries.add(JsonObject.builder()
            .put("uri", f.uri())
            .put("digest", f.digest())
            .put("size", f.size())
            .build());
      }
      b.put("resources", new JsonArray(entries));
    }
    return b.build();
  }
}
