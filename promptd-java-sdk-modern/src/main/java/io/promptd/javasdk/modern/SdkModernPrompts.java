package io.promptd.javasdk.modern;

import static java.util.Objects.requireNonNull;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.feature.McpChangePublisher;
import io.modelcontextprotocol.modern.server.feature.McpSyncPromptRepository;
import io.modelcontextprotocol.modern.server.feature.PromptsFeature;
import io.modelcontextprotocol.modern.server.feature.ServerChange;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * A {@link PromptCatalog}'s prompts for a server built with the official MCP Java SDK's 2026-07-28
 * stack ({@code io.modelcontextprotocol.modern}, SDK 2.2 and later). Register its feature and its
 * change publisher on the SDK's builder, with the SDK's request-state codec for the forms:
 *
 * <pre>{@code
 * SdkModernPrompts prompts = SdkModernPrompts.of(library.catalog());
 * McpServer server = McpServer.builder()
 *     .serverInfo(new McpSchema.Implementation("my-server", "1.0.0"))
 *     .feature(prompts.feature())
 *     .subscriptions(prompts.changes())
 *     .requestStateCodec(HmacRequestStateCodec.builder().key(secret).build())
 *     .build();
 * }</pre>
 *
 * <p>promptd's own server answers each request the SDK routes here, as it would on its own
 * transports: {@code prompts/list} in pages, with promptd's cursors (a cursor it did not issue is
 * -32602) and its {@code ttlMs} and {@code cacheScope}; {@code prompts/get} with promptd's checks
 * (a missing, unknown or rejected argument is -32602 with a message naming it; a renderer's failure
 * is -32603 with a safe message, its details in the log); {@code completion/complete} for prompt
 * arguments through the SDK's completions. When a client that declares form elicitation leaves out
 * arguments, promptd asks for them: the answer is the SDK's {@code InputRequiredResult} with
 * promptd's form, and its request state is sealed again by the SDK's codec; the client's retry,
 * with the user's answers, is rendered. The catalog is read as it is at each request, so prompts
 * added or changed later are served (and completed) at once.
 *
 * <p>Prompts that require OAuth scopes ({@link PromptDefinition#requiredScopes()}) are left out,
 * since the SDK does not tell a repository who is calling; {@link #includingScoped()} serves them
 * to every caller, for servers that authorize in front of the SDK.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class SdkModernPrompts {
  private final PromptCatalog catalog;
  private final boolean scoped;
  private final int pageSize;
  private final Duration listTtl;
  private final byte @Nullable [] secret;

  private SdkModernPrompts(
      PromptCatalog catalog,
      boolean scoped,
      int pageSize,
      Duration listTtl,
      byte @Nullable [] secret) {
    this.catalog = catalog;
    this.scoped = scoped;
    this.pageSize = pageSize;
    this.listTtl = listTtl;
    this.secret = secret;
  }

  /**
   * The prompts of {@code catalog} that require no scopes, 500 to a page, listings cached for 10 s.
   */
  public static SdkModernPrompts of(PromptCatalog catalog) {
    return new SdkModernPrompts(
        requireNonNull(catalog, "catalog"), false, 500, Duration.ofSeconds(10), null);
  }

  /** The same, with the prompts that require scopes served to every caller too. */
  public SdkModernPrompts includingScoped() {
    return new SdkModernPrompts(catalog, true, pageSize, listTtl, secret);
  }

  /**
   * The same, with at most {@code pageSize} prompts to a {@code prompts/list} page.
   *
   * @throws IllegalArgumentException when {@code pageSize} is less than 1
   */
  public SdkModernPrompts pageSize(int pageSize) {
    if (pageSize < 1) {
      throw new IllegalArgumentException(
          "SdkModernPrompts.pageSize must be at least 1, not " + pageSize);
    }
    return new SdkModernPrompts(catalog, scoped, pageSize, listTtl, secret);
  }

  /** The same, with {@code ttl} as the {@code ttlMs} of every {@code prompts/list} page. */
  public SdkModernPrompts listTtl(Duration ttl) {
    requireNonNull(ttl, "ttl");
    if (ttl.isNegative()) {
      throw new IllegalArgumentException(
          "SdkModernPrompts.listTtl must not be negative, not " + ttl);
    }
    return new SdkModernPrompts(catalog, scoped, pageSize, ttl, secret);
  }

  /**
   * The same, with cursors and promptd's part of the request state sealed under {@code secret} (at
   * least 16 bytes, copied), so that servers sharing it accept each other's cursors and form
   * retries: replicas behind a load balancer. Without it each feature seals with a random key of
   * its own.
   *
   * @throws IllegalArgumentException when {@code secret} is shorter than 16 bytes
   */
  public SdkModernPrompts sharedSecret(byte[] secret) {
    requireNonNull(secret, "secret");
    if (secret.length < 16) {
      throw new IllegalArgumentException(
          "SdkModernPrompts.sharedSecret must be at least 16 bytes, not " + secret.length);
    }
    return new SdkModernPrompts(catalog, scoped, pageSize, listTtl, secret.clone());
  }

  /**
   * The SDK's prompts feature, for {@code McpServer.builder().feature(...)}, on its default JSON
   * mapper.
   */
  public PromptsFeature feature() {
    return feature(McpJsonDefaults.getMapper());
  }

  /** The SDK's prompts feature, reading and writing the SDK's records with {@code mapper}. */
  public PromptsFeature feature(McpJsonMapper mapper) {
    requireNonNull(mapper, "mapper");
    return PromptsFeature.ofSync(
        repository(mapper), mapper, listTtl.toMillis(), McpSchema.CacheScope.PRIVATE);
  }

  /** The SDK's prompt repository itself, for a feature built by hand. */
  public McpSyncPromptRepository repository(McpJsonMapper mapper) {
    requireNonNull(mapper, "mapper");
    PromptCatalog served =
        scoped ? catalog : catalog.filtered(d -> d.requiredScopes().isEmpty());
    McpServer.Builder server =
        McpServer.builder().prompts(served).pageSize(pageSize).listTtl(listTtl);
    if (secret != null) {
      server.cursorSecret(secret).requestStateSecret(secret);
    }
    return new PromptdRepository(served, new PromptdCalls(server.build().openStateless(), mapper));
  }

  /**
   * The catalog's changes, for {@code McpServer.builder().subscriptions(...)}: one
   * {@code prompts/list_changed} to each listening client per change.
   */
  public McpChangePublisher changes() {
    return () -> Flux.create(sink -> {
      AutoCloseable listening =
          catalog.onChange(() -> sink.next(new ServerChange.PromptsListChanged()));
      sink.onDispose(() -> {
        try {
          listening.close();
        } catch (Exception e) {
          sink.error(e);
        }
      });
    });
  }
}
