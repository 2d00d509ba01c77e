package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.FreeTextConfirmation;
import io.promptd.mcp.server.LogMessage;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptFolding;
import io.promptd.mcp.server.PromptUse;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.server.SkillProvider;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one server, as {@code McpServer.Builder} collected them: what
 * {@link ServerContext} is built from.
 *
 * @param serverInfo the name and version clients see
 * @param instructions guidance for the model, or null
 * @param prompts the prompts to serve
 * @param snapshots the catalog's current state, read by the features
 * @param pageSize how many items one listing page holds
 * @param listTtl the {@code ttlMs} hint on modern listings
 * @param discoverTtl the {@code ttlMs} hint on {@code server/discover}
 * @param coalescing how long catalog changes are gathered into one {@code list_changed}
 * @param resources the resources to serve, the skill provider's own files among them, or null
 * @param skills the Agent Skills to serve, or null
 * @param cursorSecret the key that seals cursors, or null for a random one
 * @param completionRate the sustained {@code completion/complete} rate per client, per second (0:
 *     no limit)
 * @param completionBurst the {@code completion/complete} burst per client
 * @param maxBatchMessages the most messages a batch may hold
 * @param maxBatchAnswerBytes the bound on the encoded size of a batch's answer
 * @param clock the clock the rate limit reads, in nanoseconds
 * @param wallClock the clock request states' expiry reads
 * @param requestStateSecret the key that seals request states, or null for a random one
 * @param elicits whether the server may ask users for missing or invalid prompt arguments
 * @param formFirst whether prompts are form-first for clients that can show forms
 * @param freeTextConfirmation whether the first form shows the free-text values passed
 * @param folding whether rendered prompts are folded into one text message, unless a prompt says
 * @param promptsAsTools whether the prompts are offered as tools too
 * @param elicitationTimeout how long a legacy request waits for the user's answer to a form
 * @param promptUses the listener told of every {@code prompts/get}, or null
 * @param locale the language of the texts the server shows a person
 * @param standingLog what each legacy session is told before its first {@code prompts/list}
 */
@SuppressWarnings("ArrayRecordComponent") // the secrets are copies the builder made, never changed
public record ServerConfig(
    Implementation serverInfo,
    @Nullable String instructions,
    PromptCatalog prompts,
    Supplier<PromptSnapshot> snapshots,
    int pageSize,
    Duration listTtl,
    Duration discoverTtl,
    Duration coalescing,
    @Nullable ResourceProvider resources,
    @Nullable SkillProvider skills,
    byte @Nullable [] cursorSecret,
    double completionRate,
    int completionBurst,
    int maxBatchMessages,
    int maxBatchAnswerBytes,
    LongSupplier clock,
    InstantSource wallClock,
    byte @Nullable [] requestStateSecret,
    boolean elicits,
    boolean formFirst,
    FreeTextConfirmation freeTextConfirmation,
    PromptFolding folding,
    boolean promptsAsTools,
    Duration elicitationTimeout,
    @Nullable Consumer<PromptUse> promptUses,
    Locale locale,
    Supplier<? extends List<LogMessage>> standingLog) {}
