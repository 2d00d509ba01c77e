package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.FreeTextConfirmation;
import io.promptd.mcp.server.LogMessage;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptFolding;
import io.promptd.mcp.server.PromptUse;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.server.ServerText;
import io.promptd.mcp.server.SkillProvider;
import io.promptd.mcp.server.internal.notify.Broadcaster;
import io.promptd.mcp.server.internal.notify.ResourceEvents;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What the features of one server share: its settings and the services every era uses (the catalog,
 * cursors, the broadcaster, the rate limit, request states). Features receive it when they are
 * made, instead of reaching back into {@code McpServer}. It is built from the server's
 * {@link ServerConfig}.
 */
public final class ServerContext {
  public final Implementation serverInfo;
  public final @Nullable String instructions;
  public final PromptCatalog prompts;
  private final Supplier<PromptSnapshot> snapshots;
  public final int pageSize;
  public final Duration listTtl;
  public final Duration discoverTtl;
  public final Broadcaster broadcaster;
  public final Cursors cursors;
  public final @Nullable ResourceProvider resources;
  public final @Nullable SkillProvider skills;
  public final ResourceEvents resourceEvents;
  public final CompletionLimiter completionLimiter;
  public final RequestStates requestStates;
  /** Whether the server may ask users for missing or invalid prompt arguments (elicitation). */
  public final boolean elicits;
  /** Whether prompts are form-first for clients that can show forms. */
  public final boolean formFirst;
  /** Whether the first form of a form-first request shows the free-text values passed. */
  public final FreeTextConfirmation freeTextConfirmation;
  /** Whether rendered prompts are folded into one text message, unless a prompt says. */
  public final PromptFolding folding;
  /** The texts shown to a person, in the server's language (a prompt may choose its own). */
  public final ServerText text;
  /** Whether the prompts are offered as tools too ({@code list_prompts}, {@code get_prompt}). */
  public final boolean promptsAsTools;
  /**
   * How long a legacy request waits for the user's answer to a form before failing as it would
   * have.
   */
  public final Duration elicitationTimeout;
  /** The most messages a batch may hold, and the bound on the encoded size of its answer. */
  public final int maxBatchMessages;

  public final int maxBatchAnswerBytes;
  public final java.util.function.@Nullable Consumer<PromptUse> promptUses;
  /** What each legacy session is told before its first {@code prompts/list}. */
  public final Supplier<? extends List<LogMessage>> standingLog;

  public ServerContext(ServerConfig b) {
    this.serverInfo = b.serverInfo();
    this.instructions = b.instructions();
    this.prompts = b.prompts();
    this.snapshots = b.snapshots();
    this.pageSize = b.pageSize();
    this.listTtl = b.listTtl();
    this.discoverTtl = b.discoverTtl();
    this.broadcaster = new Broadcaster(b.coalescing(), b.promptsAsTools());
    this.cursors = new Cursors(b.cursorSecret());
    this.resources = b.resources();
    this.skills = b.skills();
    this.resourceEvents = new ResourceEvents(broadcaster, resources);
    this.completionLimiter =
        new CompletionLimiter(b.completionRate(), b.completionBurst(), b.clock());
    this.requestStates = new RequestStates(b.requestStateSecret(), b.wallClock());
    this.elicits = b.elicits();
    this.formFirst = b.formFirst();
    this.freeTextConfirmation = b.freeTextConfirmation();
    this.folding = b.folding();
    this.text = ServerText.of(b.locale());
    this.promptsAsTools = b.promptsAsTools();
    this.elicitationTimeout = b.elicitationTimeout();
    this.maxBatchMessages = b.maxBatchMessages();
    this.maxBatchAnswerBytes = b.maxBatchAnswerBytes();
    this.promptUses = b.promptUses();
    this.standingLog = b.standingLog();
  }

  /** The catalog's current state. */
  public PromptSnapshot snapshot() {
    return snapshots.get();
  }
}
