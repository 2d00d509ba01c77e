package io.promptd.javasdk;

import static java.util.Objects.requireNonNull;

import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpServerFeatures.AsyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.library.Library;
import io.promptd.library.Skills;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.server.ResourceProvider;
import io.promptd.mcp.spi.Caller;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * The Agent Skills of a prompt {@link Library} or of {@link Skills} for a server built with the
 * official MCP Java SDK, as resources: every file of every skill at
 * {@code skill://<skill-path>/<file-path>}, read as text when its type is text and its bytes UTF-8,
 * else as a base64 blob, so that the bytes a client reads are those the skill's manifest describes.
 * The SDK has no Skills extension: its server cannot declare it nor answer {@code skills/list} and
 * {@code skills/get}, so a client finds the skills by listing resources and reading each
 * {@code SKILL.md}, whose front matter names and describes its skill. Declare the {@code resources}
 * capability and hand the specifications to the builder:
 *
 * <pre>{@code
 * SdkSkills skills = SdkSkills.of(library);          // or SdkSkills.of(Skills.fromFolder(Path.of("skills")))
 * McpSyncServer server = McpServer.sync(transport)
 *     .capabilities(ServerCapabilities.builder().resources(false, true).build())
 *     .resources(skills.syncResources())
 *     .build();
 * AutoCloseable sync = skills.keepInSync(server);     // a library's skills change with its files
 * }</pre>
 *
 * <p>A library's skills under a {@code _folder.yaml} with scopes are left out, as
 * {@link SdkPrompts} leaves out prompts that require scopes: an SDK server does not tell a handler
 * who is calling. {@link #includingScoped()} serves them to every caller.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class SdkSkills {
  private static final System.Logger LOG = System.getLogger("io.promptd.javasdk");
  private static final String SCHEME = "skill://";
  /** A caller that holds no scopes: what an SDK server's anonymous caller may see. */
  private static final Caller NO_SCOPES = new Caller(null, Set.of(), false);

  private final ResourceProvider source;
  private final boolean scoped;
  /** The files last handed to a server, by URI. */
  private final Map<String, Resource> handedOut = new HashMap<>();

  private SdkSkills(ResourceProvider source, boolean scoped) {
    this.source = source;
    this.scoped = scoped;
  }

  /**
   * The files of the skills of {@code library} that require no scopes; its other resources are not
   * offered.
   */
  public static SdkSkills of(Library library) {
    return new SdkSkills(requireNonNull(library, "library"), false);
  }

  /** The files of {@code skills}. */
  public static SdkSkills of(Skills skills) {
    return new SdkSkills(requireNonNull(skills, "skills").files(), false);
  }

  /** The same skills, those under scopes served to every caller too. */
  public SdkSkills includingScoped() {
    return new SdkSkills(source, true);
  }

  /**
   * One specification per skill file served now, for {@code McpServer.sync(...).resources(...)}.
   */
  public List<SyncResourceSpecification> syncResources() {
    List<SyncResourceSpecification> out = new ArrayList<>();
    for (Resource r : served(true).values()) {
      out.add(new SyncResourceSpecification(
          SdkSchema.resource(r), (exchange, request) -> read(request.uri())));
    }
    return out;
  }

  /**
   * One specification per skill file served now, for {@code McpServer.async(...).resources(...)}.
   */
  public List<AsyncResourceSpecification> asyncResources() {
    List<AsyncResourceSpecification> out = new ArrayList<>();
    for (Resource r : served(true).values()) {
      out.add(asyncResource(r));
    }
    return out;
  }

  /**
   * From now on, when the skills change, adds, replaces and removes the server's skill files to
   * match (the SDK sends {@code resources/list_changed} for each); right away too, for what changed
   * since the specifications were taken. Close the handle to stop.
   */
  public AutoCloseable keepInSync(McpSyncServer server) {
    return keepInSync(requireNonNull(server, "server").getAsyncServer());
  }

  /** {@link #keepInSync(McpSyncServer)} for an asynchronous server. */
  public AutoCloseable keepInSync(McpAsyncServer server) {
    requireNonNull(server, "server");
    AutoCloseable listening = source.onChange(new ResourceProvider.Listener() {
      @Override
      public void listChanged() {
        reconcile(server);
      }

      @Override
      public void updated(String uri) {
        reconcile(server);
      }
    });
    reconcile(server);
    return listening;
  }

  /** Brings the server's skill files to what is served now. One reconciliation at a time. */
  private synchronized void reconcile(McpAsyncServer server) {
    Map<String, Resource> now = served(false);
    for (String uri : List.copyOf(handedOut.keySet())) {
      Resource before = handedOut.get(uri);
      if (!requireNonNull(before).equals(now.get(uri))) {
        SdkCalls.call(server.removeResource(uri), "removing resource '" + uri + "'");
        handedOut.remove(uri);
      }
    }
    for (Resource r : now.values()) {
      if (!handedOut.containsKey(r.uri())) {
        SdkCalls.call(server.addResource(asyncResource(r)), "adding resource '" + r.uri() + "'");
        handedOut.put(r.uri(), r);
      }
    }
  }

  /** The skill files to serve now, by URI; {@code remember} records them as handed to a server. */
  private synchronized Map<String, Resource> served(boolean remember) {
    Map<String, Resource> out = new LinkedHashMap<>();
    for (Resource r : source.resources()) {
      if (offered(r.uri())) {
        out.put(r.uri(), r);
      }
    }
    if (remember) {
      handedOut.clear();
      handedOut.putAll(out);
    }
    return out;
  }

  private boolean offered(String uri) {
    return uri.startsWith(SCHEME) && (scoped || source.visible(NO_SCOPES, uri));
  }

  private AsyncResourceSpecification asyncResource(Resource r) {
    return new AsyncResourceSpecification(
        SdkSchema.resource(r), (exchange, request) -> Mono.fromCallable(() -> read(request.uri())));
  }

  /** A {@code resources/read} of a skill file, answered from the skills as they are now. */
  McpSchema.ReadResourceResult read(String uri) {
    Optional<List<ResourceContents>> contents;
    try {
      contents = offered(uri) ? source.read(uri) : Optional.empty();
    } catch (McpException e) {
      throw error(e.code(), e.getMessage());
    } catch (Exception e) {
      LOG.log(Level.WARNING, "promptd-java-sdk: resource '" + uri + "' could not be read", e);
      throw error(
          ErrorCodes.INTERNAL_ERROR,
          "resource '" + uri + "' could not be read (the server log has the details)");
    }
    List<McpSchema.ResourceContents> out = new ArrayList<>();
    for (ResourceContents c : contents.orElseThrow(
        () -> error(ErrorCodes.RESOURCE_NOT_FOUND, "Resource not found: " + uri))) {
      out.add(SdkSchema.contents(c));
    }
    return McpSchema.ReadResourceResult.builder(out).build();
  }

  private static McpError error(int code, String message) {
    return McpError.builder(code).message(message).build();
  }
}
