package io.promptd.mcp.server.internal.feature;

import static io.promptd.mcp.protocol.ProtocolVersion.V2025_03_26;
import static io.promptd.mcp.protocol.ProtocolVersion.V2025_06_18;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.internal.method.Feature;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.method.MethodTable.Era;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.wire.Encoder;
import java.util.ArrayList;
import java.util.List;

/**
 * Prompts as tools, for clients that only use tools ({@code McpServer.Builder.promptsAsTools}):
 * {@code list_prompts} lists the prompts the caller may see, {@code get_prompt} renders one.
 * {@code get_prompt}'s input schema is derived from the argument declarations: the prompt names as
 * an {@code enum}, and each prompt's arguments with their types, choices, patterns and which are
 * required — in 2026-07-28, whose tool schemas may use any JSON Schema keyword, as an
 * {@code if}/{@code then} clause per prompt; in the legacy versions, whose schemas allow only
 * {@code properties} and {@code required} at the top, as an {@code anyOf} of the prompts' argument
 * objects under {@code arguments}. Up to {@value #DETAILED} prompts; past that the schema stays
 * generic and points to {@code list_prompts}. The tools change with the library, so a catalog
 * change is also {@code notifications/tools/list_changed}. A prompt's refusal (a missing argument,
 * an unknown prompt) is a tool result with {@code isError}, which a model can read and correct, as
 * the spec asks of tool errors.
 */
public final class ToolsFeature implements Feature {
  static final String LIST_PROMPTS = "list_prompts";
  static final String GET_PROMPT = "get_prompt";
  /**
   * Up to this many prompts, {@code get_prompt}'s schema names each and describes its arguments.
   */
  public static final int DETAILED = 100;

  private final ServerContext context;
  private final PromptsFeature prompts;

  public ToolsFeature(ServerContext context, PromptsFeature prompts) {
    this.context = context;
    this.prompts = prompts;
  }

  @Override
  public void declare(JsonObject.Builder capabilities, ProtocolVersion version) {
    capabilities.put("tools", JsonObject.builder().put("listChanged", true).build());
  }

  @Override
  public void register(MethodTable.Builder table) {
    table.add(Methods.TOOLS_LIST, Era.BOTH, MethodTable.Blocking.NEVER, call -> {
      JsonObject.Builder result = list(call.encoder(), call.caller(), call.version());
      return call.rules().cacheHints()
          ? result.put("ttlMs", context.listTtl.toMillis()).put("cacheScope", call.cacheScope())
          : result;
    });
    // get_prompt renders, and a renderer may block.
    table
        .add(
            Methods.TOOLS_CALL,
            Era.BOTH,
            MethodTable.Blocking.ALWAYS,
            request -> call(
                prompts.servingTo(request),
                request.params(),
                request.encoder(),
                request.caller(),
                request.version()))
        .named("name");
  }

  /**
   * {@code tools/list}: both tools, {@code get_prompt}'s schema made for what {@code caller} may
   * see.
   */
  JsonObject.Builder list(Encoder encoder, Caller caller, ProtocolVersion version) {
    List<PromptDefinition> visible = context.prompts.all().stream()
        .filter(d -> PromptsFeature.visibleTo(d, caller))
        .toList();
    JsonObject.Builder noInput =
        JsonObject.builder().put("type", "object").put("properties", JsonObject.EMPTY);
    if (version.isModern()) {
      noInput.put("additionalProperties", false);
    }
    JsonObject listTool = tool(
        version,
        LIST_PROMPTS,
        "List prompts",
        "Lists the prompts this server offers (name, title, description and arguments). Render one with "
            + GET_PROMPT + ".",
        noInput.build());
    JsonObject getTool = tool(
        version,
        GET_PROMPT,
        "Get a prompt",
        "Renders one of this server's prompts with arguments and returns its messages. "
            + (visible.size() <= DETAILED
                ? "The input schema names every prompt and its arguments."
                : "There are " + visible.size() + " prompts: call " + LIST_PROMPTS
                    + " to see their names and arguments."),
        getPromptSchema(visible, version));
    return JsonObject.builder().put("tools", new JsonArray(List.of(listTool, getTool)));
  }

  private static JsonObject tool(
      ProtocolVersion version,
      String name,
      String title,
      String description,
      JsonObject inputSchema) {
    JsonObject.Builder b = JsonObject.builder().put("name", name);
    if (version.atLeast(V2025_06_18)) {
      b.put("title", title);
    }
    b.put("description", description).put("inputSchema", inputSchema);
    if (version.atLeast(V2025_03_26)) {
      b.put(
          "annotations",
          JsonObject.builder()
              .put("readOnlyHint", true)
              .put("openWorldHint", false)
              .build());
    }
    return b.build();
  }

  private static JsonObject getPromptSchema(
      List<PromptDefinition> visible, ProtocolVersion version) {
    boolean anyKeyword = version.isModern();
    JsonObject.Builder name = JsonObject.builder()
        .put("type", "string")
        .put("description", "The prompt's name, as " + LIST_PROMPTS + " gives it");
    JsonObject.Builder arguments = JsonObject.builder()
        .put("type", "object")
        .put("description", "The prompt's arguments, by name")
        .put(
            "additionalProperties",
            JsonObject.builder()
                .put("type", JsonArray.ofStrings(List.of("string", "number", "integer", "boolean")))
                .build());
    List<Json> clauses = new ArrayList<>();
    List<Json> argumentSets = new ArrayList<>();
    if (visible.size() <= DETAILED) {
      List<String> names = new ArrayList<>(visible.size());
      for (PromptDefinition d : visible) {
        names.add(d.name());
        JsonObject set = argumentsOf(d);
        if (anyKeyword) {
          clauses.add(clause(d, set));
        } else {
          argumentSets.add(set.toBuilder()
              .put("title", d.name())
              .put("description", "The arguments of " + d.name())
              .build());
        }
      }
      name.put("enum", JsonArray.ofStrings(names));
    }
    if (!argumentSets.isEmpty()) {
      arguments.put("anyOf", new JsonArray(argumentSets));
    }
    JsonObject.Builder schema = JsonObject.builder()
        .put("type", "object")
        .put(
            "properties",
            JsonObject.builder()
                .put("name", name.build())
                .put("arguments", arguments.build())
                .build())
        .put("required", JsonArray.ofStrings(List.of("name")));
    if (anyKeyword) {
      schema.put("additionalProperties", false);
      if (!clauses.isEmpty()) {
        schema.put("allOf", new JsonArray(clauses));
      }
    }
    return schema.build();
  }

  /** "if name is this prompt, then arguments are these". */
  private static JsonObject clause(PromptDefinition d, JsonObject arguments) {
    JsonObject.Builder then = JsonObject.builder()
        .put("properties", JsonObject.builder().put("arguments", arguments).build());
    if (arguments.has("required")) {
      then.put("required", JsonArray.ofStrings(List.of("arguments")));
    }
    return JsonObject.builder()
        .put(
            "if",
            JsonObject.builder()
                .put(
                    "properties",
                    JsonObject.builder()
                        .put("name", JsonObject.builder().put("const", d.name()).build())
                        .build())
                .build())
        .put("then", then.build())
        .build();
  }

  /**
   * A prompt's arguments as an object schema: each one's type, choices, pattern, default and
   * requiredness.
   */
  private static JsonObject argumentsOf(PromptDefinition d) {
    JsonObject.Builder properties = JsonObject.builder();
    List<String> required = new ArrayList<>();
    for (PromptArgument a : d.prompt().arguments()) {
      ArgumentField f = d.renderer().field(a.name());
      if (f == null) {
        f = ArgumentField.of(a);
      }
      JsonObject.Builder p = JsonObject.builder()
          .put(
              "type",
              switch (f.type()) {
                case STRING -> "string";
                case NUMBER -> "number";
                case INTEGER -> "integer";
                case BOOLEAN -> "boolean";
              });
      p.put("title", f.title()).put("description", f.description());
      if (!f.choices().isEmpty()) {
        p.put("enum", JsonArray.ofStrings(f.choices()));
      }
      if (f.pattern() != null && f.type() == ArgumentField.Type.STRING) {
        p.put("pattern", f.pattern());
      }
      p.put("default", f.defaultValue());
      properties.put(a.name(), p.build());
      if (a.required()) {
        required.add(a.name());
      }
    }
    JsonObject.Builder arguments = JsonObject.builder()
        .put("type", "object")
        .put("properties", properties.build())
        .put("additionalProperties", false);
    if (!required.isEmpty()) {
      arguments.put("required", JsonArray.ofStrings(required));
    }
    return arguments.build();
  }

  /**
   * {@code tools/call}: an unknown tool is -32602; whatever the prompt refuses is a result with
   * {@code isError}.
   */
  JsonObject.Builder call(
      JsonObject params, Encoder encoder, Caller caller, ProtocolVersion version) {
    return call(prompts, params, encoder, caller, version);
  }

  /** {@code tools/call} with split prompts listed and rendered as {@code served} shows them. */
  private JsonObject.Builder call(
      PromptsFeature served,
      JsonObject params,
      Encoder encoder,
      Caller caller,
      ProtocolVersion version) {
    String tool = params
        .string("name")
        .orElseThrow(() ->
            McpException.invalidParams("Invalid params: tools/call needs \"name\" (a string)"));
    Json raw = params.get("arguments");
    JsonObject arguments = raw == null ? JsonObject.EMPTY : raw instanceof JsonObject o ? o : null;
    return switch (tool) {
      case LIST_PROMPTS -> listPrompts(served, encoder, caller, version);
      case GET_PROMPT ->
        arguments == null
            ? error("the arguments of " + GET_PROMPT + " must be an object")
            : getPrompt(served, arguments, encoder, caller, version);
      default -> throw McpException.invalidParams("Unknown tool: '" + tool + "'");
    };
  }

  private JsonObject.Builder listPrompts(
      PromptsFeature served, Encoder encoder, Caller caller, ProtocolVersion version) {
    List<Json> listed = new ArrayList<>();
    for (PromptDefinition d : context.prompts.all()) {
      if (PromptsFeature.visibleTo(d, caller)) {
        listed.add(encoder.prompt(served.shown(d).prompt()));
      }
    }
    JsonObject structured =
        JsonObject.builder().put("prompts", new JsonArray(listed)).build();
    return result(List.of(text(JsonCodec.write(structured))), structured, version);
  }

  private JsonObject.Builder getPrompt(
      PromptsFeature served,
      JsonObject arguments,
      Encoder encoder,
      Caller caller,
      ProtocolVersion version) {
    if (!(arguments.get("name") instanceof JsonString name)) {
      return error(GET_PROMPT + " needs \"name\" (a string): the prompt to render; " + LIST_PROMPTS
          + " lists them");
    }
    Json given = arguments.get("arguments");
    JsonObject.Builder strings = JsonObject.builder();
    if (given instanceof JsonObject o) {
      for (var e : o.members().entrySet()) {
        switch (e.getValue()) {
          case JsonString s -> strings.put(e.getKey(), s.value());
          case JsonNumber n -> strings.put(e.getKey(), n.toString());
          case JsonBoolean b -> strings.put(e.getKey(), Boolean.toString(b.value()));
          default -> {
            return error("argument '" + e.getKey() + "' must be a string, a number or a boolean");
          }
        }
      }
    } else if (given != null && given != JsonNull.INSTANCE) {
      return error("\"arguments\" must be an object of the prompt's arguments by name");
    }
    JsonObject rendered;
    try {
      rendered = served.get(
          JsonObject.builder()
              .put("name", name.value())
              .put("arguments", strings.build())
              .build(),
          encoder,
          caller);
    } catch (McpException e) {
      if (e.code() != ErrorCodes.INVALID_PARAMS && e.code() != ErrorCodes.INTERNAL_ERROR) {
        throw e;
      }
      return error(e.getMessage());
    }
    JsonArray messages = rendered.array("messages").orElse(JsonArray.EMPTY);
    boolean roles = messages.elements().size() > 1
        || messages.elements().stream()
            .anyMatch(m ->
                m instanceof JsonObject o && !o.string("role").orElse("user").equals("user"));
    List<Json> content = new ArrayList<>();
    for (Json m : messages.elements()) {
      if (!(m instanceof JsonObject message)
          || !(message.get("content") instanceof JsonObject block)) {
        continue;
      }
      String role = message.string("role").orElse("user");
      if (roles && block.string("type").orElse("").equals("text")) {
        content.add(block.toBuilder()
            .put("text", role + ": " + block.string("text").orElse(""))
            .build());
      } else {
        content.add(block);
      }
    }
    return result(content, rendered, version);
  }

  private static JsonObject.Builder result(
      List<Json> content, JsonObject structured, ProtocolVersion version) {
    JsonObject.Builder b = JsonObject.builder().put("content", new JsonArray(content));
    if (version.atLeast(V2025_06_18)) {
      b.put("structuredContent", structured);
    }
    return b;
  }

  private static JsonObject text(String text) {
    return JsonObject.builder().put("type", "text").put("text", text).build();
  }

  private static JsonObject.Builder error(String message) {
    return JsonObject.builder()
        .put("content", new JsonArray(List.of(text(message))))
        .put("isError", true);
  }
}
