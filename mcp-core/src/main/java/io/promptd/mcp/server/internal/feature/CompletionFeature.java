package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.server.internal.method.Feature;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.method.MethodTable.Era;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.server.internal.state.UnicodeText;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.wire.Encoder;
import java.lang.System.Logger.Level;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code completion/complete} in both eras, rate limited per client: a prompt's argument as the
 * {@link PromptsFeature} serves the prompt to the caller (its variant when split), or a variable of
 * a resource template.
 */
public final class CompletionFeature implements Feature {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.server");

  private final ServerContext context;
  private final PromptsFeature prompts;

  public CompletionFeature(ServerContext context, PromptsFeature prompts) {
    this.context = context;
    this.prompts = prompts;
  }

  @Override
  public void register(MethodTable.Builder table) {
    table
        .add(Methods.COMPLETION_COMPLETE, Era.BOTH, this::completeMayBlock, call -> {
          context.completionLimiter.acquire(call.clientKey());
          return complete(prompts.servingTo(call), call.params(), call.encoder(), call.caller())
              .toBuilder();
        })
        .prompt(CompletionFeature::completedPrompt);
  }

  /** The prompt a prompt argument's {@code completion/complete} names, or null. */
  private static @Nullable String completedPrompt(JsonObject params) {
    return params.get("ref") instanceof JsonObject ref
            && ref.get("type") instanceof JsonString type
            && type.value().equals("ref/prompt")
            && ref.get("name") instanceof JsonString name
        ? name.value()
        : null;
  }

  @Override
  public void declare(JsonObject.Builder capabilities, ProtocolVersion version) {
    if (version.atLeast(ProtocolVersion.V2025_03_26)) {
      capabilities.put("completions", JsonObject.EMPTY);
    }
  }

  /**
   * Whether completing may block: a resource template's variables come from its provider, which may
   * do I/O.
   */
  private boolean completeMayBlock(Request request, Caller caller) {
    return request
        .params()
        .object("ref")
        .map(r -> r.string("type").orElse("").equals("ref/resource")
            ? context.resources != null
            : r.string("name")
                .flatMap(context.prompts::get)
                .filter(d -> PromptsFeature.visibleTo(d, caller))
                .map(d -> d.completer() != null && d.completer().mayBlock())
                .orElse(false))
        .orElse(false);
  }

  /**
   * {@code completion/complete} of a prompt's argument as {@code prompts} serves the prompt, or of
   * a template's.
   */
  private JsonObject complete(
      PromptsFeature prompts, JsonObject params, Encoder encoder, Caller caller) {
    JsonObject ref = params
        .object("ref")
        .orElseThrow(() -> McpException.invalidParams(
            "Invalid params: completion/complete needs \"ref\" (an object)"));
    JsonObject argument = params
        .object("argument")
        .orElseThrow(() -> McpException.invalidParams(
            "Invalid params: completion/complete needs \"argument\" (an object)"));
    String argWritten = argument
        .string("name")
        .orElseThrow(
            () -> McpException.invalidParams("Invalid params: \"argument.name\" must be a string"));
    String value = argument
        .string("value")
        .orElseThrow(() ->
            McpException.invalidParams("Invalid params: \"argument.value\" must be a string"));
    String type = ref.string("type").orElse("");
    JsonObject context = params.object("context").orElse(JsonObject.EMPTY);
    if (type.equals("ref/resource")) {
      return encoder.completion(completeVariable(ref, argWritten, value, context, caller));
    }
    if (!type.equals("ref/prompt")) {
      throw McpException.invalidParams(
          "Invalid params: \"ref.type\" must be \"ref/prompt\" or \"ref/resource\"");
    }
    PromptDefinition definition = prompts.lookup(ref.get("name"), caller);
    String argName = UnicodeText.spelledAs(
        definition.prompt().arguments().stream().map(PromptArgument::name).toList(), argWritten);
    if (definition.prompt().arguments().stream().noneMatch(a -> a.name().equals(argName))) {
      throw McpException.invalidParams(
          "prompt '" + definition.name() + "' has no argument '" + argName + "'");
    }
    Map<String, String> known = UnicodeText.keysAs(
        definition.prompt(),
        PromptsFeature.arguments(
            "prompt '" + definition.name() + "'", context.get("arguments"), "context.arguments"));
    return encoder.completion(PromptsFeature.complete(
        definition, argName, value, known)); // Completion itself caps the values
  }

  /**
   * Completes a variable of the resource template whose URI template {@code ref.uri} names. A
   * template that is not listed, or that the caller may not see, gets an empty completion, exactly
   * like one nobody serves.
   */
  private Completion completeVariable(
      JsonObject ref, String variable, String value, JsonObject context, Caller caller) {
    String uri = ref.string("uri")
        .orElseThrow(() -> McpException.invalidParams(
            "Invalid params: a \"ref/resource\" needs \"uri\" (a URI template, a string)"));
    ResourceProvider provider = this.context.resources;
    ResourceTemplate template = provider == null
        ? null
        : provider.templates().stream()
            .filter(t -> t.uriTemplate().equals(uri))
            .filter(t -> caller.unrestricted() || provider.visible(caller, t))
            .findFirst()
            .orElse(null);
    if (provider == null || template == null) {
      return Completion.EMPTY;
    }
    Map<String, String> known = PromptsFeature.arguments(
        "resource template '" + uri + "'", context.get("arguments"), "context.arguments");
    try {
      Completion completion = provider.complete(template, variable, value, known);
      return completion == null ? Completion.EMPTY : completion;
    } catch (McpException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw McpException.internal("resource template '" + uri + "': completion was interrupted");
    } catch (Exception e) {
      LOG.log(Level.ERROR, "resource template '" + uri + "': completion failed", e);
      throw McpException.internal("resource template '" + uri + "': completion failed");
    }
  }
}
