package io.promptd.javasdk.modern;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncPrompt;
import io.modelcontextprotocol.modern.server.feature.McpSyncPromptRepository;
import io.modelcontextprotocol.modern.server.feature.PromptsPage;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The SDK's prompt repository over promptd's server: every listing, render and completion is
 * promptd's answer ({@link PromptdCalls}), turned into the SDK's records.
 *
 * <p>The SDK checks a {@code prompts/get}'s required arguments itself, from the prompt that
 * {@link #find} returns, before any handler runs: it would answer -32602 where promptd asks for the
 * missing arguments with a form. So the prompt handed to the SDK declares every argument optional,
 * and promptd, which holds the prompt as declared, does the checking. Clients never see that copy:
 * listings are promptd's.
 */
final class PromptdRepository implements McpSyncPromptRepository {
  private static final String INPUT_REQUIRED = "input_required";

  private final PromptCatalog catalog;
  private final PromptdCalls calls;

  PromptdRepository(PromptCatalog catalog, PromptdCalls calls) {
    this.catalog = catalog;
    this.calls = calls;
  }

  @Override
  public PromptsPage list(McpRequestContext ctx, @Nullable String cursor) {
    JsonObject.Builder params = JsonObject.builder();
    if (cursor != null) {
      params.put("cursor", cursor);
    }
    McpSchema.ListPromptsResult listed = calls.read(
        calls.call(ctx, Methods.PROMPTS_LIST, params, null), McpSchema.ListPromptsResult.class);
    return new PromptsPage(
        listed.prompts(), listed.nextCursor(), listed.ttlMs(), listed.cacheScope());
  }

  @Override
  public @Nullable McpSyncPrompt find(McpRequestContext ctx, String name) {
    PromptDefinition definition = catalog.get(name).orElse(null);
    if (definition == null) {
      return null;
    }
    return McpSyncPrompt.of(unchecked(definition.prompt()), this::get)
        .withCompletionHandler(this::complete);
  }

  @Override
  public boolean supportsCompletion() {
    return true;
  }

  private McpSyncResponse<McpSchema.GetPromptOutcome> get(
      McpRequestContext ctx, McpSchema.GetPromptRequest request) {
    JsonObject.Builder params = JsonObject.builder().put("name", request.name());
    if (request.arguments() != null) {
      params.put("arguments", calls.json(request.arguments()));
    }
    if (request.inputResponses() != null) {
      params.put("inputResponses", calls.json(request.inputResponses()));
    }
    if (request.requestState() != null) {
      params.put("requestState", request.requestState());
    }
    JsonObject result = calls.call(ctx, Methods.PROMPTS_GET, params, request.name());
    return McpSyncResponse.result(
        INPUT_REQUIRED.equals(result.string("resultType").orElse(null))
            ? inputRequired(result)
            : calls.read(result, McpSchema.GetPromptResult.class));
  }

  private McpSchema.CompleteResult complete(
      McpRequestContext ctx, McpSchema.CompleteRequest request) {
    JsonObject.Builder params = JsonObject.builder();
    ((JsonObject) calls.json(request)).members().forEach(params::put);
    return calls.read(
        calls.call(ctx, Methods.COMPLETION_COMPLETE, params, null), McpSchema.CompleteResult.class);
  }

  /**
   * promptd's {@code InputRequiredResult}: its forms, and its request state, which the SDK seals
   * with its own codec before it goes out and opens again on the retry.
   */
  private McpSchema.InputRequiredResult inputRequired(JsonObject result) {
    McpSchema.InputRequiredResult.Builder out = McpSchema.InputRequiredResult.builder();
    JsonObject requests = result.object("inputRequests").orElse(JsonObject.EMPTY);
    for (Map.Entry<String, Json> e : requests.members().entrySet()) {
      JsonObject request = (JsonObject) e.getValue();
      JsonObject params = request.object("params").orElse(JsonObject.EMPTY);
      if (!Methods.ELICITATION_CREATE.equals(request.string("method").orElse(null))
          || !"form".equals(params.string("mode").orElse("form"))) {
        throw new McpException(
            ErrorCodes.INTERNAL_ERROR, "promptd asked for input the SDK adapter cannot pass on");
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> schema = (Map<String, Object>)
          calls.plain(params.object("requestedSchema").orElse(JsonObject.EMPTY));
      out.elicit(
          e.getKey(),
          McpSchema.ElicitFormRequest.builder(params.string("message").orElse(""), schema)
              .build());
    }
    result.string("requestState").ifPresent(out::requestState);
    return out.build();
  }

  /** {@code prompt} with every argument optional, for the SDK's own argument check. */
  private static McpSchema.Prompt unchecked(Prompt prompt) {
    List<McpSchema.PromptArgument> arguments =
        new ArrayList<>(prompt.arguments().size());
    for (PromptArgument a : prompt.arguments()) {
      arguments.add(new McpSchema.PromptArgument(a.name(), a.title(), a.description(), false));
    }
    return McpSchema.Prompt.builder(prompt.name())
        .title(prompt.title())
        .description(prompt.description())
        .arguments(arguments)
        .build();
  }
}
