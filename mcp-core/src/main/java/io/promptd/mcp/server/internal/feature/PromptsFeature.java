package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.ArgumentCompleter;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentForms;
import io.promptd.mcp.server.ArgumentsNeeded;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptFolding;
import io.promptd.mcp.server.PromptSplit;
import io.promptd.mcp.server.PromptUse;
import io.promptd.mcp.server.ServerText;
import io.promptd.mcp.server.internal.method.EraRules;
import io.promptd.mcp.server.internal.method.Feature;
import io.promptd.mcp.server.internal.method.MethodCall;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.method.MethodTable.Era;
import io.promptd.mcp.server.internal.state.FormElicitation;
import io.promptd.mcp.server.internal.state.PromptSnapshot;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.server.internal.state.UnicodeText;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.wire.Encoder;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code prompts/list} and {@code prompts/get} in both eras: the same listing and rendering;
 * missing arguments are asked for as the call's {@link EraRules} say ({@link LegacyElicitation},
 * {@link InputRequired}). {@code completion/complete} is the {@link CompletionFeature}'s.
 */
public final class PromptsFeature implements Feature {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.server");

  private final ServerContext context;
  /** How requests from clients that can show forms are asked for arguments (form-first). */
  private final FormRules forms;
  /** Whose variant of a split prompt is listed and served; null: the prompt as registered. */
  private final @Nullable String audience;

  public PromptsFeature(ServerContext context) {
    this(
        context,
        new FormRules(context.formFirst, context.freeTextConfirmation, context.text),
        null);
  }

  private PromptsFeature(ServerContext context, FormRules forms, @Nullable String audience) {
    this.context = context;
    this.forms = forms;
    this.audience = audience;
  }

  /** {@code definition} as this feature's caller is shown it: its variant when split. */
  PromptDefinition shown(PromptDefinition definition) {
    return servedTo(definition, audience);
  }

  /**
   * This feature as {@code call}'s caller sees it: split prompts as the caller's variant
   * ({@link PromptSplit}).
   */
  PromptsFeature servingTo(MethodCall call) {
    return new PromptsFeature(context, forms, call.audience());
  }

  /** How requests from clients that can show forms are asked for arguments. */
  FormRules forms() {
    return forms;
  }

  /** {@code definition} as {@code audience} is served it: its variant when split, else itself. */
  static PromptDefinition servedTo(PromptDefinition definition, @Nullable String audience) {
    PromptSplit s = definition.split();
    return s == null || audience == null ? definition : s.pick(audience).definition();
  }

  /** Whether {@code caller} may see {@code definition}. */
  static boolean visibleTo(PromptDefinition definition, Caller caller) {
    return caller.permits(definition.requiredScopes());
  }

  /** Suggestions for {@code argument} of {@code definition}; empty without a completer. */
  static Completion complete(
      PromptDefinition definition, String argument, String value, Map<String, String> context) {
    ArgumentCompleter c = definition.completer();
    return c == null ? Completion.EMPTY : c.complete(argument, value, context);
  }

  @Override
  public void declare(JsonObject.Builder capabilities, ProtocolVersion version) {
    capabilities.put("prompts", JsonObject.builder().put("listChanged", true).build());
  }

  @Override
  public void register(MethodTable.Builder table) {
    table.add(Methods.PROMPTS_LIST, Era.BOTH, MethodTable.Blocking.NEVER, this::list);
    table
        .add(Methods.PROMPTS_GET, Era.BOTH, this::renderMayBlock, this::get)
        .named("name")
        .asks()
        .prompt(params -> params.get("name") instanceof JsonString name ? name.value() : null);
  }

  private JsonObject.Builder list(MethodCall call) {
    StandingLog.tell(call.session(), context);
    return servingTo(call).listFor(call);
  }

  private JsonObject.Builder listFor(MethodCall call) {
    EraRules rules = call.rules();
    boolean formFirst = rules.showsForms(call) && forms.relaxesListings();
    Listed listed = listed(
        call.params(), call.encoder(), call.caller(), formFirst, call.context().clientInfo());
    if (!rules.cacheHints()) {
      return listed.result();
    }
    // A form-first listing is not to be shared with clients that cannot show forms; a page showing
    // a split prompt shows the caller's variant, and a listing longer than a page depends on the
    // clientInfo (clients that read only the first page get it all in one): not to be shared with
    // other callers.
    return listed
        .result()
        .put("ttlMs", context.listTtl.toMillis())
        .put(
            "cacheScope",
            formFirst || listed.personal() || listed.byClient() ? "private" : call.cacheScope());
  }

  /** {@code prompts/get}, told to the usage listener when it names a prompt the caller may see. */
  private JsonObject.Builder get(MethodCall call) {
    Consumer<PromptUse> listener = context.promptUses;
    String name = call.params().string("name").orElse(null);
    PromptsFeature served = servingTo(call);
    PromptDefinition definition =
        name == null ? null : visible(context.snapshot().get(name), call.caller());
    if (listener == null || name == null || definition == null) {
      return served.serve(call);
    }
    PromptSplit split = definition.split();
    String variant = split == null ? null : split.pick(call.audience()).tag();
    long start = System.nanoTime();
    PromptUse.Outcome outcome = PromptUse.Outcome.ERROR;
    try {
      JsonObject.Builder result = served.serve(call);
      outcome = "input_required".equals(result.build().string("resultType").orElse(null))
          ? PromptUse.Outcome.FORM_ASKED
          : PromptUse.Outcome.RENDERED;
      return result;
    } catch (FormElicitation.Declined e) {
      outcome = PromptUse.Outcome.FORM_DECLINED;
      throw e;
    } catch (McpException e) {
      outcome = e.code() == ErrorCodes.INVALID_PARAMS
          ? PromptUse.Outcome.REFUSED
          : PromptUse.Outcome.ERROR;
      throw e;
    } finally {
      try {
        listener.accept(new PromptUse(
            name,
            call.context().clientInfo(),
            outcome,
            Duration.ofNanos(System.nanoTime() - start),
            variant));
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "the prompt usage listener failed", e);
      }
    }
  }

  private JsonObject.Builder serve(MethodCall call) {
    return switch (call.rules().asking(call)) {
      case INPUT_REQUIRED ->
        InputRequired.get(
            this,
            context.requestStates,
            context.elicits,
            forms,
            call.params(),
            call.encoder(),
            call.context());
      case ELICIT ->
        LegacyElicitation.get(
            this,
            call.legacySession(),
            call.stream(),
            call.version(),
            call.params(),
            call.encoder(),
            call.caller())
            .toBuilder();
      case NEVER ->
        get(call.params(), call.encoder(), call.caller(), null, call.context().clientInfo())
            .toBuilder();
    };
  }

  /**
   * Whether rendering may block: when the renderer does not declare otherwise. A prompt the caller
   * may not see is answered like an unknown one, from memory: never on another thread.
   */
  private boolean renderMayBlock(Request request, Caller caller) {
    return request
        .params()
        .string("name")
        .flatMap(context.prompts::get)
        .filter(d -> visibleTo(d, caller))
        .map(d -> d.renderer().mayBlock())
        .orElse(false);
  }

  /** {@code prompts/list}: the prompts {@code caller} may see, a page at a time, as declared. */
  JsonObject.Builder list(JsonObject params, Encoder encoder, Caller caller) {
    return list(params, encoder, caller, false, null);
  }

  /**
   * {@code prompts/list}: the prompts {@code caller} may see, a page at a time; {@code formFirst}:
   * as a client that can show forms sees them, required arguments that may wait for the form listed
   * as optional ({@link ArgumentForms}).
   */
  JsonObject.Builder list(
      JsonObject params,
      Encoder encoder,
      Caller caller,
      boolean formFirst,
      @Nullable Implementation client) {
    return listed(params, encoder, caller, formFirst, client).result();
  }

  /**
   * A page of {@code prompts/list}; {@code personal}: it shows a split prompt as this caller's
   * variant; {@code byClient}: the listing is longer than a page, so what it shows depends on the
   * client ({@link ClientQuirks#pageSize}).
   */
  private record Listed(JsonObject.Builder result, boolean personal, boolean byClient) {}

  private Listed listed(
      JsonObject params,
      Encoder encoder,
      Caller caller,
      boolean formFirst,
      @Nullable Implementation client) {
    String after = null;
    Json cursor = params.get("cursor");
    if (cursor instanceof JsonString s) {
      after = context.cursors.decode(s.value());
    } else if (cursor != null) {
      throw McpException.invalidParams("Invalid cursor: \"cursor\" must be a string");
    }
    PromptSnapshot.Listing page =
        context.snapshot().page(after, ClientQuirks.pageSize(client, context.pageSize), caller);
    List<Json> prompts = new ArrayList<>(page.items().size());
    boolean personal = false;
    for (PromptDefinition listed : page.items()) {
      PromptDefinition p = shown(listed);
      personal |= listed.split() != null && audience != null;
      prompts.add(encoder.prompt(
          formFirst && p.renderer().elicits() ? FormRules.listed(p.prompt()) : p.prompt()));
    }
    JsonObject.Builder result = JsonObject.builder().put("prompts", new JsonArray(prompts));
    if (page.more()) {
      result.put("nextCursor", context.cursors.encode(page.items().getLast().name()));
    }
    boolean byClient = after != null || page.more() || page.items().size() > context.pageSize;
    return new Listed(result, personal, byClient);
  }

  JsonObject get(JsonObject params, Encoder encoder, Caller caller) {
    return get(params, encoder, caller, null, null);
  }

  /**
   * {@code prompts/get}; with {@code ask}, for a client that can show forms: what is missing or
   * invalid is thrown as one {@link ArgumentsNeeded} form ({@link FormRules#check}) unless the
   * prompt opts out of being asked. The result is folded into one text message for {@code client}
   * when the prompt's or the server's {@link PromptFolding} says so.
   */
  JsonObject get(
      JsonObject params,
      Encoder encoder,
      Caller caller,
      FormRules.@Nullable Ask ask,
      @Nullable Implementation client) {
    PromptDefinition definition = lookup(params.get("name"), caller);
    Prompt prompt = definition.prompt();
    Map<String, String> arguments = UnicodeText.keysAs(
        prompt, arguments("prompt '" + prompt.name() + "'", params.get("arguments"), "arguments"));
    if (ask != null && definition.renderer().elicits()) {
      FormRules.check(definition, arguments, ask);
    } else {
      checkArguments(definition, arguments);
    }
    Set<String> placeholders = ClientQuirks.placeholders(client, arguments);
    GetPromptResult result;
    try {
      result = placeholders.isEmpty()
          ? definition.renderer().render(arguments)
          : definition.renderer().render(arguments, placeholders);
    } catch (McpException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw McpException.internal("prompt '" + prompt.name() + "': rendering was interrupted");
    } catch (Exception | StackOverflowError | LinkageError | AssertionError e) {
      // Errors a renderer can cause (runaway recursion, a missing class, a failed assert) must
      // still get an answer.
      LOG.log(Level.ERROR, "prompt '" + prompt.name() + "' failed to render", e);
      throw McpException.internal("prompt '" + prompt.name() + "' failed to render");
    }
    if (result == null) {
      throw McpException.internal("prompt '" + prompt.name() + "' rendered nothing");
    }
    if (PromptFold.wanted(prompt, context.folding, client)) {
      result = PromptFold.fold(result);
    }
    return encoder.getPromptResult(result);
  }

  /** The texts for {@code definition}: in its own language when it chose one, else the server's. */
  ServerText text(PromptDefinition definition) {
    return ServerText.forPrompt(definition.prompt().meta(), context.text);
  }

  /**
   * The texts for prompt {@code name}, visible to {@code caller}; the server's when there is no
   * such prompt.
   */
  ServerText text(String name, Caller caller) {
    PromptDefinition definition = visible(context.snapshot().get(name), caller);
    return definition == null ? context.text : text(servedTo(definition, audience));
  }

  /**
   * Whether prompt {@code name}, visible to {@code caller}, lets the server ask for its arguments.
   */
  boolean elicits(String name, Caller caller) {
    PromptDefinition definition = visible(context.snapshot().get(name), caller);
    return definition != null && servedTo(definition, audience).renderer().elicits();
  }

  /**
   * The prompt {@code name} names, if {@code caller} may see it. A prompt hidden from the caller
   * takes the very path of one that does not exist: same check, same exception, same message;
   * nothing else about it is looked at.
   */
  PromptDefinition lookup(@Nullable Json name, Caller caller) {
    if (!(name instanceof JsonString s)) {
      throw McpException.invalidParams("Invalid params: \"name\" must be a string naming a prompt");
    }
    PromptDefinition definition = visible(context.snapshot().get(s.value()), caller);
    if (definition == null) {
      throw McpException.invalidParams("Unknown prompt: '" + s.value() + "'");
    }
    return servedTo(definition, audience);
  }

  /** {@code definition} when {@code caller} may see it, else null, as for a name no prompt has. */
  static @Nullable PromptDefinition visible(@Nullable PromptDefinition definition, Caller caller) {
    return definition != null && visibleTo(definition, caller) ? definition : null;
  }

  static Map<String, String> arguments(String owner, @Nullable Json raw, String field) {
    if (raw == null) {
      return Map.of();
    }
    if (!(raw instanceof JsonObject o)) {
      throw McpException.invalidParams(owner + ": \"" + field + "\" must be an object of strings");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, Json> e : o.members().entrySet()) {
      if (!(e.getValue() instanceof JsonString s)) {
        throw McpException.invalidParams(owner + ": argument '" + e.getKey()
            + "' must be a string, not " + e.getValue().typeName());
      }
      out.put(
          e.getKey(), UnicodeText.checked(s.value(), owner + ": argument '" + e.getKey() + "'"));
    }
    return out;
  }

  private void checkArguments(PromptDefinition definition, Map<String, String> arguments) {
    Prompt prompt = definition.prompt();
    ServerText text = text(definition);
    List<String> missing = new ArrayList<>();
    List<ArgumentsNeeded.Question> questions = new ArrayList<>();
    for (PromptArgument a : prompt.arguments()) {
      if (a.required()
          && (arguments.get(a.name()) == null || arguments.get(a.name()).isEmpty())) {
        missing.add("'" + a.name() + "'");
        ArgumentField field = definition.renderer().field(a.name());
        questions.add(new ArgumentsNeeded.Question(
            field != null ? field : ArgumentField.of(a), text.get("reason.required")));
      }
    }
    if (!missing.isEmpty()) {
      throw new ArgumentsNeeded(
          text.get(
              missing.size() > 1 ? "argument.missing.many" : "argument.missing.one",
              prompt.name(),
              String.join(", ", missing)),
          questions);
    }
    refuseUnknown(text, prompt, arguments);
  }

  /**
   * -32602 naming the arguments {@code prompt} does not declare, if any (no form can fix those).
   */
  static void refuseUnknown(ServerText text, Prompt prompt, Map<String, String> arguments) {
    List<String> unknown = new ArrayList<>();
    for (String name : arguments.keySet()) {
      if (prompt.arguments().stream().noneMatch(a -> a.name().equals(name))) {
        unknown.add("'" + name + "'");
      }
    }
    if (!unknown.isEmpty()) {
      throw McpException.invalidParams(text.get(
          unknown.size() > 1 ? "argument.unknown.many" : "argument.unknown.one",
          prompt.name(),
          String.join(", ", unknown)));
    }
  }
}
