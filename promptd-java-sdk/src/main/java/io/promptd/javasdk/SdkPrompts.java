package io.promptd.javasdk;

import static java.util.Objects.requireNonNull;

import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.ArgumentCompleter;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.lang.System.Logger.Level;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link PromptCatalog}'s prompts for a server built with the official MCP Java SDK. Hand its
 * specifications to the server's builder, then keep the running server in step with the catalog:
 *
 * <pre>{@code
 * Library library = Library.open(LibrarySource.folders(List.of(Path.of("prompts"))), LibraryOptions.defaults());
 * library.watch();
 * SdkPrompts prompts = SdkPrompts.of(library.catalog());
 * McpSyncServer server = McpServer.sync(transport)
 *     .capabilities(ServerCapabilities.builder().prompts(true).completions().build())
 *     .prompts(prompts.syncPrompts())
 *     .completions(prompts.syncCompletions())
 *     .build();
 * AutoCloseable sync = prompts.keepInSync(server);   // added, changed and removed prompts; list_changed
 * }</pre>
 *
 * <p>Each {@code prompts/get} is answered by promptd's own server behind the SDK's handler, so a
 * client that declared elicitation and leaves out an argument (or gives one a prompt refuses) is
 * asked for it in promptd's form, through the SDK's {@code elicitation/create}. Each
 * {@code prompts/get} and {@code completion/complete} is answered from the catalog as it is at that
 * moment, with promptd's checks: a missing required argument, an unknown one or a value that is not
 * a string is -32602, a value a prompt rejects is the prompt's own -32602, and a failure inside a
 * renderer is -32603 with a safe message (its details go to the log). What the SDK does not let an
 * adapter do is said where it matters: completions are fixed when the SDK server is built, so a
 * prompt added later is completed with nothing; each prompt added, changed or removed is one
 * {@code list_changed} (the SDK sends one per change).
 *
 * <p>Prompts that require OAuth scopes ({@link PromptDefinition#requiredScopes()}) are left out: an
 * SDK server does not tell a handler who is calling, so it could not keep them from callers without
 * the scopes. {@link #includingScoped()} serves them to every caller, for servers that authorize in
 * front of the SDK.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class SdkPrompts {
  private static final System.Logger LOG = System.getLogger("io.promptd.javasdk");

  private final PromptCatalog catalog;
  private final boolean scoped;
  /** Whether every argument is listed as not required ({@link #formFirst()}). */
  private final boolean formFirst;
  /**
   * The prompts last handed to a server (by a specification list or {@link #keepInSync}), by name.
   */
  private final Map<String, PromptDefinition> handedOut = new HashMap<>();
  /** promptd's own server behind the renders, serving exactly what this adapter serves. */
  private final PromptdAnswers answers;

  private SdkPrompts(PromptCatalog catalog, boolean scoped, boolean formFirst) {
    this.catalog = catalog;
    this.scoped = scoped;
    this.formFirst = formFirst;
    this.answers = new PromptdAnswers(
        scoped ? catalog : catalog.filtered(d -> d.requiredScopes().isEmpty()));
  }

  /** The prompts of {@code catalog} that require no scopes. */
  public static SdkPrompts of(PromptCatalog catalog) {
    return new SdkPrompts(requireNonNull(catalog, "catalog"), false, false);
  }

  /** The same catalog, with the prompts that require scopes served to every caller too. */
  public SdkPrompts includingScoped() {
    return new SdkPrompts(catalog, true, formFirst);
  }

  /**
   * The same catalog, every argument listed as not required (form-first), for servers whose clients
   * show forms: a client such as Claude Code checks a listed required argument itself and never
   * asks the server, while a {@code prompts/get} that leaves one out gets promptd's form through
   * {@code elicitation/create} (a client without forms gets -32602 naming it). The SDK lists
   * prompts alike to every client, so this applies to all of them; promptd's own server lists
   * arguments as optional only to clients that declared forms.
   */
  public SdkPrompts formFirst() {
    return new SdkPrompts(catalog, scoped, true);
  }

  /** One specification per prompt served now, for {@code McpServer.sync(...).prompts(...)}. */
  public List<SyncPromptSpecification> syncPrompts() {
    List<SyncPromptSpecification> out = new ArrayList<>();
    for (PromptDefinition d : served(true).values()) {
      out.add(syncPrompt(d));
    }
    return out;
  }

  /** One specification per prompt served now, for {@code McpServer.async(...).prompts(...)}. */
  public List<AsyncPromptSpecification> asyncPrompts() {
    List<AsyncPromptSpecification> out = new ArrayList<>();
    for (PromptDefinition d : served(true).values()) {
      out.add(asyncPrompt(d));
    }
    return out;
  }

  /**
   * One completion specification per prompt served now, for
   * {@code McpServer.sync(...).completions(...)}: the SDK takes completions only when it builds a
   * server, so a prompt added later has none.
   */
  public List<SyncCompletionSpecification> syncCompletions() {
    List<SyncCompletionSpecification> out = new ArrayList<>();
    for (String name : served(false).keySet()) {
      out.add(new SyncCompletionSpecification(
          new McpSchema.PromptReference(name), (exchange, request) -> complete(request)));
    }
    return out;
  }

  /** {@link #syncCompletions()} for {@code McpServer.async(...).completions(...)}. */
  public List<AsyncCompletionSpecification> asyncCompletions() {
    List<AsyncCompletionSpecification> out = new ArrayList<>();
    for (String name : served(false).keySet()) {
      out.add(new AsyncCompletionSpecification(
          new McpSchema.PromptReference(name),
          (exchange, request) -> Mono.fromCallable(() -> complete(request))));
    }
    return out;
  }

  /**
   * From now on, when the catalog changes, adds, replaces and removes the server's prompts to match
   * (the SDK sends {@code list_changed} for each); right away too, for what changed since the
   * specifications were taken. Close the handle to stop.
   */
  public AutoCloseable keepInSync(McpSyncServer server) {
    return keepInSync(requireNonNull(server, "server").getAsyncServer());
  }

  /** {@link #keepInSync(McpSyncServer)} for an asynchronous server. */
  public AutoCloseable keepInSync(McpAsyncServer server) {
    requireNonNull(server, "server");
    AutoCloseable listening = catalog.onChange(() -> reconcile(server));
    reconcile(server);
    return listening;
  }

  /** Brings the server's prompts to what the catalog serves now. One reconciliation at a time. */
  private synchronized void reconcile(McpAsyncServer server) {
    Map<String, PromptDefinition> now = new LinkedHashMap<>();
    for (PromptDefinition d : catalog.all()) {
      if (scoped || d.requiredScopes().isEmpty()) {
        now.put(d.name(), d);
      }
    }
    for (String name : List.copyOf(handedOut.keySet())) {
      if (!now.containsKey(name)) {
        SdkCalls.call(server.removePrompt(name), "removing prompt '" + name + "'");
        handedOut.remove(name);
      }
    }
    for (PromptDefinition d : now.values()) {
      PromptDefinition before = handedOut.get(d.name());
      if (before == null || !before.prompt().equals(d.prompt())) {
        SdkCalls.call(server.addPrompt(asyncPrompt(d)), "adding prompt '" + d.name() + "'");
        handedOut.put(d.name(), d);
      }
    }
  }

  /** The prompts to serve now, by name; {@code remember} records them as handed to a server. */
  private synchronized Map<String, PromptDefinition> served(boolean remember) {
    Map<String, PromptDefinition> out = new LinkedHashMap<>();
    for (PromptDefinition d : catalog.all()) {
      if (scoped || d.requiredScopes().isEmpty()) {
        out.put(d.name(), d);
      }
    }
    if (remember) {
      handedOut.clear();
      handedOut.putAll(out);
    }
    return out;
  }

  private SyncPromptSpecification syncPrompt(PromptDefinition d) {
    return new SyncPromptSpecification(
        listed(d),
        (exchange, request) -> answers.get(
            request.name(),
            request.arguments(),
            exchange.getClientInfo(),
            canShowForms(exchange.getClientCapabilities())
                ? (message, schema) -> exchange.createElicitation(form(message, schema))
                : null));
  }

  private AsyncPromptSpecification asyncPrompt(PromptDefinition d) {
    return new AsyncPromptSpecification(
        listed(d),
        (exchange, request) -> Mono.fromCallable(() -> answers.get(
                request.name(),
                request.arguments(),
                exchange.getClientInfo(),
                canShowForms(exchange.getClientCapabilities())
                    ? (message, schema) -> answered(
                        exchange.createElicitation(form(message, schema)).block())
                    : null))
            // A form waits for the user: never on one of Reactor's non-blocking threads.
            .subscribeOn(Schedulers.boundedElastic()));
  }

  /** The prompt as {@code prompts/list} shows it. */
  private McpSchema.Prompt listed(PromptDefinition d) {
    McpSchema.Prompt p = SdkSchema.prompt(d.prompt());
    if (!formFirst) {
      return p;
    }
    List<McpSchema.PromptArgument> arguments = new ArrayList<>();
    for (McpSchema.PromptArgument a : p.arguments()) {
      arguments.add(new McpSchema.PromptArgument(a.name(), a.title(), a.description(), false));
    }
    return new McpSchema.Prompt(
        p.name(), p.title(), p.description(), arguments, p.meta(), p.icons());
  }

  /** Whether a client declared that it shows forms ({@code elicitation}, form mode). */
  private static boolean canShowForms(McpSchema.@Nullable ClientCapabilities capabilities) {
    return capabilities != null && capabilities.elicitation() != null;
  }

  /** A form's answer; none at all counts as the user cancelling it. */
  private static McpSchema.ElicitResult answered(McpSchema.@Nullable ElicitResult result) {
    return result != null
        ? result
        : new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.CANCEL, null);
  }

  private static McpSchema.ElicitRequest form(String message, Map<String, Object> schema) {
    return McpSchema.ElicitFormRequest.builder(message, schema).build();
  }

  /**
   * A {@code prompts/get} from a client that shows no forms, answered by promptd from the catalog
   * as it is now.
   */
  McpSchema.GetPromptResult get(McpSchema.GetPromptRequest request) {
    return answers.get(request.name(), request.arguments(), null, null);
  }

  /**
   * A {@code completion/complete} for a prompt's argument, answered from the catalog as it is now.
   */
  McpSchema.CompleteResult complete(McpSchema.CompleteRequest request) {
    if (!(request.ref() instanceof McpSchema.PromptReference ref)) {
      return new McpSchema.CompleteResult(
          new McpSchema.CompleteResult.CompleteCompletion(List.of(), 0, false));
    }
    PromptDefinition definition = lookUp(ref.name())
        .orElseThrow(
            () -> error(ErrorCodes.INVALID_PARAMS, "Unknown prompt: '" + ref.name() + "'"));
    ArgumentCompleter completer = definition.completer();
    String argument = declared(definition.prompt(), request.argument().name());
    if (definition.prompt().arguments().stream().noneMatch(a -> a.name().equals(argument))) {
      throw error(
          ErrorCodes.INVALID_PARAMS,
          "prompt '" + ref.name() + "' has no argument '" + argument + "'");
    }
    Map<String, String> context = request.context() == null || request.context().arguments() == null
        ? Map.of()
        : request.context().arguments();
    Completion c;
    try {
      c = completer == null
          ? Completion.EMPTY
          : completer.complete(
              argument,
              request.argument().value() == null ? "" : request.argument().value(),
              context);
    } catch (McpException e) {
      throw error(e.code(), e.getMessage());
    } catch (RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "promptd-java-sdk: completing '" + argument + "' of prompt '" + ref.name() + "' failed",
          e);
      throw error(ErrorCodes.INTERNAL_ERROR, "completion failed (the server log has the details)");
    }
    return new McpSchema.CompleteResult(
        new McpSchema.CompleteResult.CompleteCompletion(c.values(), c.total(), c.hasMore()));
  }

  private Optional<PromptDefinition> lookUp(String name) {
    return catalog.get(name).filter(d -> scoped || d.requiredScopes().isEmpty());
  }

  /**
   * {@code name} as {@code prompt} declares it when the two differ only in Unicode normalisation (a
   * client on macOS may send a name in NFD), else {@code name} as it is.
   */
  private static String declared(Prompt prompt, String name) {
    if (prompt.arguments().stream().anyMatch(a -> a.name().equals(name))) {
      return name;
    }
    String nfc = Normalizer.normalize(name, Normalizer.Form.NFC);
    return prompt.arguments().stream()
        .map(PromptArgument::name)
        .filter(n -> Normalizer.normalize(n, Normalizer.Form.NFC).equals(nfc))
        .findFirst()
        .orElse(name);
  }

  private static McpError error(int code, String message) {
    return McpError.builder(code).message(message).build();
  }
}
