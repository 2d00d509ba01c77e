package io.promptd.mcp.server;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.spi.Caller;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where a server's resources come from: a folder of prompt attachments, a fixture, a database.
 * Register one with {@link McpServer.Builder#resources(ResourceProvider)}; the server then serves
 * {@code resources/list}, {@code resources/read}, {@code resources/templates/list} and
 * subscriptions in both eras.
 *
 * <p>Implementations must be thread-safe: the server calls them from many request threads at once.
 * They should return the same order on every call so that paginated listings stay consistent.
 */
@Stability(Stability.Tier.STABLE)
public interface ResourceProvider {
  /** The direct resources, in a stable order. */
  List<Resource> resources();

  /** The resource templates, in a stable order; none by default. */
  default List<ResourceTemplate> templates() {
    return List.of();
  }

  /**
   * Reads one resource, direct or matching a template.
   *
   * @param uri the URI the client asked for
   * @return the contents, or empty when no such resource exists (the client gets a "resource not
   *     found" error)
   * @throws Exception when reading fails; the client gets -32603 with a safe message and the
   *     details go to the log. Throw {@link io.promptd.mcp.jsonrpc.McpException} to choose the
   *     error yourself.
   */
  Optional<List<ResourceContents>> read(String uri) throws Exception;

  /**
   * Whether {@code caller} may see the resource at {@code uri}, direct or yielded by a template.
   * The server asks before listing, reading or announcing a change to a caller under authorization
   * ({@link Caller#unrestricted()} callers see everything without asking), and answers a resource
   * the caller may not see exactly as one that does not exist. Every caller may see every resource
   * by default. Must be cheap and must not block.
   */
  default boolean visible(Caller caller, String uri) {
    return true;
  }

  /**
   * Reads one resource for {@code caller}, who is under authorization: empty when nothing serves
   * {@code uri} or the caller may not see it, which the client cannot tell apart. The default asks
   * {@link #visible(Caller, String)}, then {@link #read(String)}; a provider whose resources change
   * while it serves should decide both on one state.
   *
   * @throws Exception as {@link #read(String)}
   */
  default Optional<List<ResourceContents>> read(String uri, Caller caller) throws Exception {
    return visible(caller, uri) ? read(uri) : Optional.empty();
  }

  /**
   * Whether {@code caller} may see {@code template} in {@code resources/templates/list}; see
   * {@link #visible}.
   */
  default boolean visible(Caller caller, ResourceTemplate template) {
    return true;
  }

  /**
   * Suggests values for a variable of {@code template}, for {@code completion/complete} with a
   * {@code ref/resource} naming its URI template. The server asks only for a template this provider
   * lists and the caller may see. None by default. May block: the server calls it on a thread of
   * its own.
   *
   * @param template the template, as {@link #templates()} lists it
   * @param variable the variable being completed, as the client names it (it may not be one the
   *     template has)
   * @param value what the user has typed so far
   * @param context variables the user has already filled in, by name
   * @return at most {@value Completion#MAX_VALUES} suggestions
   * @throws Exception when completing fails; the client gets -32603 with a safe message
   */
  default Completion complete(
      ResourceTemplate template, String variable, String value, Map<String, String> context)
      throws Exception {
    return Completion.EMPTY;
  }

  /**
   * Starts telling {@code listener} about changes. The default provider never changes.
   *
   * @return a handle that stops the notifications when closed
   */
  default AutoCloseable onChange(Listener listener) {
    return () -> {};
  }

  /** Hears about changes to a provider's resources. Must not block. */
  interface Listener {
    /** The set of resources or templates changed, in a way any caller may see. */
    void listChanged();

    /**
     * The set of resources or templates changed, touching only what callers that hold one of
     * {@code scopes} may see: the server sends {@code notifications/resources/list_changed} only to
     * those callers and unrestricted ones, since even a notification that names nothing tells by
     * its timing that something changed. Each element is the scopes a caller must hold together to
     * see a resource or template that changed, before or after the change (an empty one: every
     * caller may see it), as {@link ResourceProvider#visible(Caller, String)} decides; an empty
     * {@code scopes} concerns unrestricted callers only. The default tells every caller
     * ({@link #listChanged()}).
     *
     * @param scopes the sets of scopes of what changed, before and after
     */
    default void listChanged(Set<Set<String>> scopes) {
      listChanged();
    }

    /** The contents of the resource at {@code uri} changed. */
    void updated(String uri);
  }
}
