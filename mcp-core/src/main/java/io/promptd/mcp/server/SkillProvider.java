package io.promptd.mcp.server;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.spi.Caller;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Where a server's Agent Skills come from, for the Skills extension
 * ({@code io.modelcontextprotocol/skills}). Register one with
 * {@link McpServer.Builder#skills(SkillProvider)}; the server then declares the extension to
 * 2026-07-28 clients and serves {@code skills/list} and {@code skills/get}. The skills' files are
 * resources, under the URIs the entries list: a provider that serves them itself says so with
 * {@link #files()}; otherwise the server's {@link ResourceProvider} must serve them.
 *
 * <p>Implementations must be thread-safe and should return the same order on every call, so that
 * paginated listings stay consistent.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public interface SkillProvider {
  /** The skills served, in a stable order; nested skills are entries of their own. */
  List<Skill> skills();

  /**
   * Whether {@code caller}, who is under authorization, may see the skill whose {@code SKILL.md} is
   * at {@code uri}. A skill the caller may not see is answered exactly as one that does not exist.
   * Every caller may see every skill by default. Must be cheap and must not block.
   */
  default boolean visible(Caller caller, String uri) {
    return true;
  }

  /**
   * Whether {@link #children} is implemented: the server then declares {@code directoryRead: true}
   * and serves {@code resources/directory/read}. False by default.
   */
  default boolean directoryRead() {
    return false;
  }

  /**
   * The direct children of the directory resource at {@code uri} ({@code skill://<skill-path>} or a
   * folder inside a skill, without a trailing slash) that {@code caller} may see: files as their
   * resources, folders as resources of type {@code inode/directory}, in a stable order. Empty when
   * {@code uri} is not such a directory or the caller may see nothing in it; the client then gets
   * -32602. Must not block for long.
   */
  default Optional<List<Resource>> children(String uri, Caller caller) {
    return Optional.empty();
  }

  /**
   * The skills' files as resources, when this provider serves them itself: the server then lists
   * them in {@code resources/list} and reads them with {@code resources/read} in both eras, beside
   * the resources of {@link McpServer.Builder#resources(ResourceProvider)} (which it asks for no
   * URI these files list), and declares the {@code resources} capability even without a resource
   * provider of its own. Null by default: the server's resource provider serves them, as a prompt
   * library does for its own skills.
   */
  default @Nullable ResourceProvider files() {
    return null;
  }
}
