package io.promptd.mcp.server;

import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.internal.notify.Broadcaster;
import io.promptd.mcp.server.internal.notify.ResourceEvents;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What the features of one server share: its settings and the services every era uses (the catalog, cursors, the
 * broadcaster, the rate limit, request states). Features receive it when they are made, instead of reaching back into
 * {@link McpServer}. It is built from the server's {@link ServerConfig}.
 */
final class ServerContext {
  final Implementation serverInfo;
  final @Nullable String instructions;
  final PromptCatalog prompts;
  final int pageSize;
  final Duration listTtl;
  final Duration discoverTtl;
  final Broadcaster broadcaster;
  final Cursors cursors;
  final @Nullable ResourceProvider resources;
  final @Nullable SkillProvider skills;
  final ResourceEvents resourceEvents;
  final CompletionLimiter completionLimiter;
  final RequestStates requestStates;
  /** Whether the server may ask users for missing or invalid prompt arguments (elicitation). */
  final boolean elicits;
  /** How requests from clients that can show forms are asked for arguments (form-first). */
  final ArgumentForms forms;
  /** Whether the prompts are offered as tools too ({@code list_prompts}, {@code get_prompt}). */
  final boolean promptsAsTools;
  /** How long a legacy request waits for the user's answer to a form before failing as it would have. */
  final Duration elicitationTimeout;
  /** The most messages a batch may hold, and the bound on the encoded size of its answer. */
  final int maxBatchMessages;

  final int maxBatchAnswerBytes;
  final java.util.function.@Nullable Consumer<PromptUse> promptUses;

  ServerContext(ServerConfig b) {
    this.serverInfo = b.serverInfo();
    this.instructions = b.instructions();
    this.prompts = b.prompts();
    this.pageSize = b.pageSize();
    this.listTtl = b.listTtl();
    this.discoverTtl = b.discoverTtl();
    this.broadcaster = new Broadcaster(b.coalescing(), b.promptsAsTools());
    this.cursors = new Cursors(b.cursorSecret());
    // A skill provider that serves its own files adds them to the resources, in one place for
    // every feature.
    this.resources = SkillFiles.with(b.resources(), b.skills());
    this.skills = b.skills();
    this.resourceEvents = new ResourceEvents(broadcaster, resources);
    this.completionLimiter =
        new CompletionLimiter(b.completionRate(), b.completionBurst(), b.clock());
    this.requestStates = new RequestStates(b.requestStateSecret(), b.wallClock());
    this.elicits = b.elicits();
    this.forms = new ArgumentForms(b.formFirst(), b.freeTextConfirmation());
    this.promptsAsTools = b.promptsAsTools();
    this.elicitationTimeout = b.elicitationTimeout();
    this.maxBatchMessages = b.maxBatchMessages();
    this.maxBatchAnswerBytes = b.maxBatchAnswerBytes();
    this.promptUses = b.promptUses();
  }
}
