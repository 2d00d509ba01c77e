package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.LoggingLevel;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.server.internal.era.Admissions;
import io.promptd.mcp.server.internal.era.SessionImpl;
import io.promptd.mcp.server.internal.era.StatelessEra;
import io.promptd.mcp.server.internal.feature.CompletionFeature;
import io.promptd.mcp.server.internal.feature.PromptsFeature;
import io.promptd.mcp.server.internal.feature.ResourcesFeature;
import io.promptd.mcp.server.internal.feature.ServerFeature;
import io.promptd.mcp.server.internal.feature.SkillFiles;
import io.promptd.mcp.server.internal.feature.SkillsFeature;
import io.promptd.mcp.server.internal.feature.ToolsFeature;
import io.promptd.mcp.server.internal.method.Capabilities;
import io.promptd.mcp.server.internal.method.Feature;
import io.promptd.mcp.server.internal.method.MethodTable;
import io.promptd.mcp.server.internal.state.ServerConfig;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Admission;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.RequestHeaders;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.StatelessEndpoint;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An MCP server for prompts that speaks both protocol eras: legacy clients open a session with
 * {@code initialize}, modern clients send per-request {@code _meta}. Transports open a
 * {@link ServerSession} per channel and feed it messages; the server coalesces catalog changes into
 * {@code notifications/prompts/list_changed} for every legacy session and every modern
 * {@code subscriptions/listen} stream.
 *
 * <pre>{@code
 * PromptCatalog prompts = PromptCatalog.create();
 * prompts.put(PromptDefinition.of(Prompt.of("greet", "Say hello", List.of()),
 *     args -> List.of(PromptMessage.user("Hello!"))));
 * McpServer server = McpServer.builder().prompts(prompts).build();
 * }</pre>
 */
@Stability(Stability.Tier.STABLE)
public final class McpServer implements AutoCloseable {
  /** The default sustained {@code completion/complete} rate per client, per second. */
  public static final int DEFAULT_COMPLETION_RATE = 20;
  /** The default {@code completion/complete} burst per client. */
  public static final int DEFAULT_COMPLETION_BURST = 40;
  /** The default most messages one JSON-RPC batch may hold. */
  public static final int DEFAULT_MAX_BATCH_MESSAGES = 100;
  /**
   * The default bound on the encoded size of the answer to one JSON-RPC batch, in bytes (4 MiB).
   */
  public static final int DEFAULT_MAX_BATCH_ANSWER_BYTES = 4 * 1024 * 1024;

  private final ServerContext context;
  private final Capabilities capabilities;
  private final MethodTable methods;
  private final AutoCloseable catalogListener;
  private final AutoCloseable resourceListener;

  private McpServer(Builder b) {
    this.context = new ServerContext(b.config());
    // The features, in the order their capabilities are declared: prompts, resources, completion,
    // tools when offered, skills; the protocol's own methods declare none.
    PromptsFeature prompts = new PromptsFeature(context);
    List<Feature> features = new ArrayList<>();
    features.add(prompts);
    features.add(new ResourcesFeature(context));
    features.add(new CompletionFeature(context, prompts));
    if (context.promptsAsTools) {
      features.add(new ToolsFeature(context, prompts));
    }
    features.add(new SkillsFeature(context));
    this.capabilities = new Capabilities(features);
    features.add(0, new ServerFeature(context, capabilities));
    this.methods = MethodTable.standard(features);
    this.catalogListener = context.prompts.onAccessChange(context.broadcaster::promptsChanged);
    ResourceProvider provider = context.resources;
    this.resourceListener = provider == null ? () -> {} : provider.onChange(context.resourceEvents);
  }

  /**
   * Every method this server takes, sorted by name, with what its row in the method table says of
   * it: requests of either era, the requests an era answers itself ({@code initialize}) and the
   * notifications a client sends.
   */
  public Collection<ServedMethod> methods() {
    return methods.served().values();
  }

  /** The method named {@code name}, if this server takes it. */
  public Optional<ServedMethod> method(String name) {
    return Optional.ofNullable(methods.served().get(requireNonNull(name, "name")));
  }

  /** Returns a builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Opens a session for one channel.
   *
   * @param sessionOutbound where session-scoped notifications go (a legacy client's
   *     {@code list_changed}); use {@link Outbound#discard()} when the channel has none
   */
  public ServerSession openSession(Outbound sessionOutbound) {
    requireNonNull(sessionOutbound, "sessionOutbound");
    return new SessionImpl(context, methods, capabilities, sessionOutbound);
  }

  /**
   * Opens a handler for stateless (2026-07-28) requests arriving with transport metadata (HTTP
   * headers), for one transport: one per transport, shared by all its requests. Its
   * {@link StatelessEndpoint#endStreams()} ends the listen streams it serves, not those of other
   * transports.
   */
  public StatelessEndpoint openStateless() {
    return new StatelessEra(context, methods);
  }

  /**
   * Decides which era takes one unit of input that arrived with request metadata (an HTTP POST),
   * for a transport to switch over: a 2026-07-28 request ({@code MCP-Protocol-Version} naming no
   * legacy version, or {@code _meta} naming one) is stateless, even within a session; otherwise it
   * is legacy, where only {@code initialize} may come without a session, and unreadable input
   * without one is rejected.
   *
   * @param headers the request metadata beside the body
   * @param input the decoded body
   * @param inSession whether the input names a legacy session (HTTP's {@code Mcp-Session-Id})
   */
  public Admission admit(RequestHeaders headers, Incoming input, boolean inSession) {
    return Admissions.admit(
        requireNonNull(headers, "headers"), requireNonNull(input, "input"), inSession);
  }

  /** The prompts this server serves. */
  public PromptCatalog prompts() {
    return context.prompts;
  }

  /**
   * Sends {@code notifications/message} to every initialized legacy session whose
   * {@code logging/setLevel} admits {@code level} (INFO until the client sets one). Modern requests
   * carry their own log level and get no server-initiated log messages. Delivery is asynchronous
   * and never blocks the caller.
   *
   * @param level the severity
   * @param logger the name of the part of the server that logs, or null
   * @param data the message: a string or any JSON value
   */
  public void log(LoggingLevel level, @Nullable String logger, Json data) {
    requireNonNull(level, "level");
    requireNonNull(data, "data");
    Notification message = new Notification(
        Methods.NOTIFICATION_MESSAGE,
        JsonObject.builder()
            .put("level", level.id())
            .put("logger", logger)
            .put("data", data)
            .build());
    context.broadcaster.submit(() -> context.broadcaster.log(level, message));
  }

  /**
   * This library's version (the promptd release it was built from), e.g. for a server's own
   * {@link Implementation}.
   */
  public static String libraryVersion() {
    return Version.CURRENT;
  }

  /** The server's name and version, as clients see it. */
  public Implementation serverInfo() {
    return context.serverInfo;
  }

  /**
   * Stops change notifications and ends every open {@code subscriptions/listen} stream gracefully.
   */
  @Override
  public void close() {
    try {
      catalogListener.close();
      resourceListener.close();
    } catch (Exception e) {
      throw new IllegalStateException("could not remove a change listener", e);
    }
    context.broadcaster.close();
  }

  /** What the features share; tests read its services. */
  ServerContext context() {
    return context;
  }

  /** Configures an {@link McpServer}. */
  public static final class Builder {
    // A server built on the library is its author's, not promptd: a neutral name until
    // serverInfo(...) says.
    Implementation serverInfo = new Implementation("mcp-server", Version.CURRENT);

    @Nullable
    String instructions;

    PromptCatalog prompts = PromptCatalog.create();
    int pageSize = 500;
    Duration listTtl = Duration.ofSeconds(10);
    Duration discoverTtl = Duration.ofHours(1);
    Duration coalescing = Duration.ofMillis(20);

    @Nullable
    ResourceProvider resources;

    @Nullable
    SkillProvider skills;

    byte @Nullable [] cursorSecret;
    double completionRate = DEFAULT_COMPLETION_RATE;
    int completionBurst = DEFAULT_COMPLETION_BURST;
    int maxBatchMessages = DEFAULT_MAX_BATCH_MESSAGES;
    int maxBatchAnswerBytes = DEFAULT_MAX_BATCH_ANSWER_BYTES;
    LongSupplier clock = System::nanoTime;
    InstantSource wallClock = InstantSource.system();
    byte @Nullable [] requestStateSecret;
    boolean elicits = true;
    boolean formFirst = true;
    FreeTextConfirmation freeTextConfirmation = FreeTextConfirmation.AUTO;
    PromptFolding folding = PromptFolding.AUTO;
    Locale locale = Locale.ENGLISH;
    boolean promptsAsTools;
    Duration elicitationTimeout = Duration.ofMinutes(10);

    java.util.function.@Nullable Consumer<PromptUse> promptUses;
    Supplier<? extends List<LogMessage>> standingLog = List::of;

    private Builder() {}

    /**
     * What stands while it is so — the errors of prompt files that are not served, say — told to
     * each legacy session once, as {@code notifications/message}, before the answer to its first
     * {@code prompts/list}: a client that connects after the problem was logged hears of it when it
     * looks at the prompts. Each message the session's {@code logging/setLevel} admits is sent
     * (INFO until the client sets one). Asked for on the request's thread: it must be quick.
     * Messages logged while a session is open reach it through {@link McpServer#log} as before;
     * modern requests get neither.
     */
    public Builder standingLog(Supplier<? extends List<LogMessage>> messages) {
      this.standingLog = requireNonNull(messages, "messages");
      return this;
    }

    /**
     * Tells {@code listener} of every {@code prompts/get} of a prompt the caller may see
     * ({@link PromptUse}), on the request's thread once the answer is made: it must be quick and
     * never block. A listener that throws is logged and the request is answered as if it had not.
     */
    public Builder onPromptUse(Consumer<PromptUse> listener) {
      this.promptUses = requireNonNull(listener, "listener");
      return this;
    }

    /**
     * Limits {@code completion/complete} per client with a token bucket (completion.mdx:
     * implementations MUST rate limit completion): {@code perSecond} requests a second on average,
     * up to {@code burst} at once after a pause. A client is a legacy session; in 2026-07-28 the
     * access token's subject under authorization, else the address the transport saw (HTTP), else
     * the process (stdio). Past the limit a request gets
     * {@link io.promptd.mcp.jsonrpc.ErrorCodes#RATE_LIMITED} with {@code data.retryAfterMs}. The
     * default, {@value #DEFAULT_COMPLETION_RATE} a second with bursts of
     * {@value #DEFAULT_COMPLETION_BURST}, is well above a person's typing speed; {@code perSecond}
     * 0 turns the limit off.
     *
     * @throws IllegalArgumentException when {@code perSecond} is negative or not finite, or
     *     {@code burst} is below 1 while a limit is set
     */
    public Builder completionRateLimit(double perSecond, int burst) {
      if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
        throw new IllegalArgumentException(
            "McpServer.Builder.completionRateLimit: perSecond must be 0 (off) or positive, not "
                + perSecond);
      }
      if (perSecond > 0 && burst < 1) {
        throw new IllegalArgumentException(
            "McpServer.Builder.completionRateLimit: burst must be at least 1, not " + burst);
      }
      this.completionRate = perSecond;
      this.completionBurst = burst;
      return this;
    }

    /**
     * Bounds the JSON-RPC batches a 2025-03-26 session accepts (the only version that allows them),
     * so that one request body cannot make the server build an answer of any size. A batch of more
     * than {@code maxMessages} messages is refused whole with one -32600 error that states the
     * limit. Requests run in order; once the encoded answers passed {@code maxAnswerBytes}, the
     * requests left are not run and each gets a -32600 error saying so (notifications in the batch
     * are still handled), so an answer stays under {@code maxAnswerBytes} plus one response and
     * those errors. Defaults: {@value #DEFAULT_MAX_BATCH_MESSAGES} messages,
     * {@value #DEFAULT_MAX_BATCH_ANSWER_BYTES} bytes. A transport's own limit on a request's size
     * (a stdio line, an HTTP body) applies first, to the batch as it arrives.
     *
     * @throws IllegalArgumentException when either is below 1
     */
    public Builder batchLimits(int maxMessages, int maxAnswerBytes) {
      if (maxMessages < 1) {
        throw new IllegalArgumentException(
            "McpServer.Builder.batchLimits: maxMessages must be at least 1, not " + maxMessages);
      }
      if (maxAnswerBytes < 1) {
        throw new IllegalArgumentException(
            "McpServer.Builder.batchLimits: maxAnswerBytes must be at least 1, not "
                + maxAnswerBytes);
      }
      this.maxBatchMessages = maxMessages;
      this.maxBatchAnswerBytes = maxAnswerBytes;
      return this;
    }

    /**
     * How long a legacy request waits for the user's answer to a form (default 10 minutes); tests
     * shorten it.
     */
    Builder elicitationTimeout(Duration timeout) {
      this.elicitationTimeout = requireNonNull(timeout, "timeout");
      return this;
    }

    /** The clock request states' expiry reads; tests step it by hand. */
    Builder wallClock(InstantSource clock) {
      this.wallClock = requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Whether the server may ask the user for a prompt's missing or invalid arguments (form
     * elicitation: a 2026-07-28 {@code InputRequiredResult}; in a 2025-06-18 or 2025-11-25 session
     * over stdio, an {@code elicitation/create} request) instead of answering -32602, when the
     * client declares it can show forms and the prompt does not opt out
     * ({@link PromptRenderer#elicits()}). Default true.
     */
    public Builder elicitation(boolean enabled) {
      this.elicits = enabled;
      return this;
    }

    /**
     * Whether prompts are form-first for clients that can show forms (see {@link ArgumentForms}):
     * their arguments are listed as optional, so that a client lets a command without them through,
     * and a request that lacks any is answered with one form asking for every argument without a
     * valid value. Clients that cannot show forms see the prompts as declared. Needs
     * {@link #elicitation(boolean) elicitation}; prompts and arguments may opt out in their
     * {@code _meta}. Default true.
     */
    public Builder formFirst(boolean enabled) {
      this.formFirst = enabled;
      return this;
    }

    /**
     * Whether the first form of a form-first request also shows the free-text values the client
     * passed, for the user to check (some clients cut typed text at the first space). Default
     * {@link FreeTextConfirmation#AUTO}.
     */
    public Builder freeTextConfirmation(FreeTextConfirmation confirmation) {
      this.freeTextConfirmation = requireNonNull(confirmation, "confirmation");
      return this;
    }

    /**
     * Whether rendered prompts are folded into one user text message ({@link PromptFolding}): by
     * default, {@link PromptFolding#AUTO}, for the clients known to use only the first text
     * message. A prompt's own setting in its {@code _meta} overrides this one.
     */
    public Builder folding(PromptFolding folding) {
      this.folding = requireNonNull(folding, "folding");
      return this;
    }

    /**
     * The language of the texts the server shows a person — the frames and hints of the forms that
     * ask for arguments, and argument errors — as {@link ServerText} speaks it (English, Simplified
     * Chinese, Japanese); any other is English. A prompt may choose its own
     * ({@link ServerText#LOCALE_META}). Default English.
     */
    public Builder locale(Locale locale) {
      this.locale = requireNonNull(locale, "locale");
      return this;
    }

    /**
     * Whether to offer the prompts as tools too, for clients that only use tools:
     * {@code list_prompts} lists the prompts a caller may see, {@code get_prompt} renders one, its
     * input schema derived from the argument declarations; {@code tools/list_changed} follows the
     * library's changes. Default false: no tools capability.
     */
    public Builder promptsAsTools(boolean enabled) {
      this.promptsAsTools = enabled;
      return this;
    }

    /**
     * The key that seals the {@code requestState} of 2026-07-28 {@code InputRequiredResult}s
     * (HMAC-SHA256), for servers that must accept each other's retries, such as replicas behind a
     * load balancer; at least 16 bytes, copied. Null (the default): a random key per server, and
     * another server's state is refused as invalid.
     *
     * @throws IllegalArgumentException when shorter than 16 bytes
     */
    public Builder requestStateSecret(byte @Nullable [] secret) {
      if (secret != null && secret.length < 16) {
        throw new IllegalArgumentException(
            "requestStateSecret must be at least 16 bytes, not " + secret.length);
      }
      this.requestStateSecret = secret == null ? null : secret.clone();
      return this;
    }

    /** The clock the rate limit reads, in nanoseconds; tests step it by hand. */
    Builder clock(LongSupplier nanos) {
      this.clock = requireNonNull(nanos, "clock");
      return this;
    }

    /**
     * The key that seals pagination cursors (HMAC-SHA256), for servers that must accept each
     * other's cursors, such as replicas behind a load balancer; at least 16 bytes, copied. Null
     * (the default): a random key per server, and a cursor from another server is refused as
     * invalid.
     *
     * @throws IllegalArgumentException when shorter than 16 bytes
     */
    public Builder cursorSecret(byte @Nullable [] secret) {
      if (secret != null && secret.length < 16) {
        throw new IllegalArgumentException(
            "cursorSecret must be at least 16 bytes, not " + secret.length);
      }
      this.cursorSecret = secret == null ? null : secret.clone();
      return this;
    }

    /**
     * The name and version clients see. Set your own: without it the server is called
     * {@code mcp-server}, with this library's version ({@link McpServer#libraryVersion()}).
     */
    public Builder serverInfo(Implementation serverInfo) {
      this.serverInfo = requireNonNull(serverInfo, "serverInfo");
      return this;
    }

    /**
     * Guidance for the model about this server, sent at {@code initialize} and
     * {@code server/discover}.
     */
    public Builder instructions(@Nullable String instructions) {
      this.instructions = instructions;
      return this;
    }

    /** The prompts to serve; the server follows every later change to the catalog. */
    public Builder prompts(PromptCatalog prompts) {
      this.prompts = requireNonNull(prompts, "prompts");
      return this;
    }

    /**
     * The resources to serve, or null for none (the default). With a provider the server declares
     * the {@code resources} capability with {@code subscribe} and {@code listChanged}, and follows
     * the provider's changes.
     */
    public Builder resources(@Nullable ResourceProvider resources) {
      this.resources = resources;
      return this;
    }

    /**
     * The Agent Skills to serve, or null for none (the default). With a provider the server
     * declares the Skills extension ({@code io.modelcontextprotocol/skills}) to 2026-07-28 clients
     * and serves {@code skills/list} and {@code skills/get}; legacy clients, whose capabilities
     * have no place for extensions, get neither. The skills' files are resources in both eras:
     * served by the provider itself when its {@link SkillProvider#files()} says so (the server
     * lists them beside those of {@link #resources(ResourceProvider)}), else they must be served by
     * {@link #resources(ResourceProvider)}.
     */
    public Builder skills(@Nullable SkillProvider skills) {
      this.skills = skills;
      return this;
    }

    /**
     * How many items one {@code prompts/list} or {@code resources/list} page holds (default 500).
     */
    public Builder pageSize(int pageSize) {
      if (pageSize < 1) {
        throw new IllegalArgumentException("pageSize must be at least 1, not " + pageSize);
      }
      this.pageSize = pageSize;
      return this;
    }

    /** The {@code ttlMs} hint on modern {@code prompts/list} results (default 10 s). */
    public Builder listTtl(Duration ttl) {
      this.listTtl = nonNegative(ttl, "listTtl");
      return this;
    }

    /** The {@code ttlMs} hint on {@code server/discover} results (default 1 h). */
    public Builder discoverTtl(Duration ttl) {
      this.discoverTtl = nonNegative(ttl, "discoverTtl");
      return this;
    }

    /**
     * How long to gather catalog changes into one {@code list_changed} notification (default 20
     * ms).
     */
    public Builder changeCoalescing(Duration window) {
      this.coalescing = nonNegative(window, "changeCoalescing");
      return this;
    }

    /** Builds the server. */
    public McpServer build() {
      return new McpServer(this);
    }

    /** The settings collected so far. */
    private ServerConfig config() {
      return new ServerConfig(
          serverInfo,
          instructions,
          prompts,
          prompts::snapshot,
          pageSize,
          listTtl,
          discoverTtl,
          coalescing,
          // A skill provider that serves its own files adds them to the resources, in one place
          // for every feature.
          SkillFiles.with(resources, skills),
          skills,
          cursorSecret,
          completionRate,
          completionBurst,
          maxBatchMessages,
          maxBatchAnswerBytes,
          clock,
          wallClock,
          requestStateSecret,
          elicits,
          formFirst,
          freeTextConfirmation,
          folding,
          promptsAsTools,
          elicitationTimeout,
          promptUses,
          locale,
          standingLog);
    }

    private static Duration nonNegative(Duration d, String what) {
      requireNonNull(d, what);
      if (d.isNegative()) {
        throw new IllegalArgumentException(what + " must not be negative, not " + d);
      }
      return d;
    }
  }
}
