package io.promptd.mcp.client;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A client for an MCP server's prompts, over stdio or Streamable HTTP, in whichever era the server
 * speaks.
 *
 * <p>Connecting detects the era as the 2026-07-28 versioning rules describe: over stdio a
 * {@code server/discover} probe, falling back to {@code initialize} on any non-modern error or a
 * time-out; over HTTP a modern request whose {@code 400} body is inspected before falling back.
 * Server errors surface as {@link McpException} with the server's code and message; transport
 * failures as {@link IOException}. A legacy HTTP session the server no longer knows (HTTP 404) is
 * replaced by a new one, as the spec requires, and the request sent once more.
 *
 * <pre>{@code
 * try (McpClient client = McpClient.connectStdio(List.of("./promptd", "serve", "examples/prompts"))) {
 *   for (Prompt p : client.listPrompts()) System.out.println(p.name());
 * }
 * }</pre>
 */
@Stability(Stability.Tier.STABLE)
public final class McpClient implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.client");

  /** The one modern version this client speaks. */
  public static final String MODERN_VERSION = ProtocolVersion.LATEST_MODERN.id();

  /** The legacy version this client asks for in {@code initialize}. */
  public static final String LEGACY_VERSION = ProtocolVersion.LATEST_LEGACY.id();

  private final Channel channel;
  private final ClientOptions options;
  private final AtomicLong ids = new AtomicLong();
  private final PromptWatches watches;
  private final ServerRequests serverRequests;
  private volatile ServerIdentity server = ServerIdentity.PROBING;

  private McpClient(Channel channel, ClientOptions options) {
    this.channel = channel;
    this.options = options;
    this.serverRequests = new ServerRequests(options.forms());
    this.watches = new PromptWatches(this);
    channel.onNotification(watches::onNotification);
    channel.onRequest(serverRequests::answer);
  }

  /** Spawns {@code command} and connects to it over its stdin and stdout, with default options. */
  public static McpClient connectStdio(List<String> command) throws IOException {
    return connectStdio(command, ClientOptions.defaults());
  }

  /** Spawns {@code command} and connects to it over its stdin and stdout. */
  public static McpClient connectStdio(List<String> command, ClientOptions options)
      throws IOException {
    requireNonNull(command, "command");
    requireNonNull(options, "options");
    if (command.isEmpty()) {
      throw new IllegalArgumentException("command must name a program");
    }
    return open(StdioChannel.start(List.copyOf(command)), options);
  }

  /**
   * Connects to a Streamable HTTP endpoint such as {@code http://127.0.0.1:3000/mcp}; when the URL
   * refuses the Streamable HTTP {@code initialize} with 400, 404 or 405 and a GET to it opens an
   * event stream that names an endpoint, to a server of the old 2024-11-05 HTTP+SSE transport (such
   * as {@code http://127.0.0.1:3000/sse}).
   */
  public static McpClient connectHttp(URI url, ClientOptions options) throws IOException {
    requireNonNull(url, "url");
    requireNonNull(options, "options");
    return open(new HttpChannel(url, options.probeTimeout(), options.headers()), options);
  }

  private static McpClient open(Channel channel, ClientOptions options) throws IOException {
    try {
      McpClient client = new McpClient(channel, options);
      client.server = EraDetection.detect(client);
      return client;
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  /** Whether the server speaks the modern (stateless, 2026-07-28) era. */
  public boolean modern() {
    return server.modern();
  }

  /** The protocol version in use. */
  public String protocolVersion() {
    return server.version();
  }

  /**
   * {@code "stdio"}, {@code "http"} (Streamable HTTP) or {@code "sse"} (the old 2024-11-05 HTTP+SSE
   * transport).
   */
  public String transport() {
    return channel instanceof HttpChannel http ? (http.sseTransport() ? "sse" : "http") : "stdio";
  }

  /** The server's self-reported identity, if it sent one. */
  public @Nullable Implementation serverInfo() {
    return server.serverInfo();
  }

  /** The server's capabilities. */
  public JsonObject serverCapabilities() {
    return server.capabilities();
  }

  /** One page of prompts; pass the previous page's {@code nextCursor}, or null for the first. */
  public PromptPage listPrompts(@Nullable String cursor) throws IOException {
    JsonObject result =
        call(Methods.PROMPTS_LIST, JsonObject.builder().put("cursor", cursor).build());
    List<Prompt> prompts = new ArrayList<>();
    for (var p : result
        .array("prompts")
        .orElseThrow(() -> new MalformedResultException("no prompts"))
        .elements()) {
      prompts.add(Decoder.prompt(p));
    }
    return new PromptPage(
        prompts, result.string("nextCursor").filter(c -> !c.isEmpty()).orElse(null));
  }

  /**
   * Every prompt, following {@code nextCursor} page by page; a server that repeats a cursor is
   * refused.
   */
  public List<Prompt> listPrompts() throws IOException {
    List<Prompt> all = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String cursor = null;
    do {
      PromptPage page = listPrompts(cursor);
      all.addAll(page.prompts());
      cursor = page.nextCursor();
      if (cursor != null && !seen.add(cursor)) {
        throw new MalformedResultException("the server repeated cursor '" + cursor + "' after "
            + seen.size() + " pages; stopping instead of looping");
      }
    } while (cursor != null);
    return all;
  }

  /**
   * Renders a prompt. With {@link ClientOptions#forms()} set the server may ask the user for
   * missing or invalid arguments through it, in either era.
   */
  public GetPromptResult getPrompt(String name, Map<String, String> arguments) throws IOException {
    return getPrompt(name, arguments, options.forms());
  }

  /**
   * Renders a prompt, letting the server ask the user for missing or invalid arguments: a
   * 2026-07-28 request declares form elicitation, and each {@code input_required} answer's form
   * goes to {@code forms}; the request is then sent again with the answers and the server's
   * {@code requestState}, until the prompt renders (at most {@value #MAX_ROUNDS} rounds). A legacy
   * server asks with {@code elicitation/create} requests of its own, and only when the session
   * declared the capability, that is when {@link ClientOptions#forms()} was set at connection;
   * those go to that handler.
   *
   * @param forms where a 2026-07-28 server's forms go; null: the server is not offered to ask
   * @throws McpException when the server refuses (for example -32602 after the user declined)
   */
  public GetPromptResult getPrompt(
      String name, Map<String, String> arguments, @Nullable FormHandler forms) throws IOException {
    return Decoder.getPromptResult(getPromptJson(name, arguments, forms));
  }

  /**
   * {@link #getPrompt(String, Map, FormHandler)}, returning the server's final result as it sent
   * it.
   */
  public JsonObject getPromptJson(
      String name, Map<String, String> arguments, @Nullable FormHandler forms) throws IOException {
    requireNonNull(name, "name");
    JsonObject.Builder args = JsonObject.builder();
    arguments.forEach(args::put);
    JsonObject params =
        JsonObject.builder().put("name", name).put("arguments", args.build()).build();
    if (forms == null || !server.modern()) {
      return call(Methods.PROMPTS_GET, params);
    }
    return InputRounds.run(this, Methods.PROMPTS_GET, params, forms);
  }

  /** How often a request whose time is up looks again while a form is open. */
  private static final long FORM_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

  /** How many {@code input_required} rounds one request may take before the client gives up. */
  public static final int MAX_ROUNDS = 8;

  /**
   * Suggests values for a prompt argument, given what has been typed and the arguments already
   * filled in.
   */
  public Completion complete(
      String prompt, String argument, String value, Map<String, String> context)
      throws IOException {
    JsonObject.Builder known = JsonObject.builder();
    context.forEach(known::put);
    JsonObject.Builder params = JsonObject.builder()
        .put(
            "ref",
            JsonObject.builder().put("type", "ref/prompt").put("name", prompt).build())
        .put(
            "argument",
            JsonObject.builder().put("name", argument).put("value", value).build());
    if (!context.isEmpty()) {
      params.put("context", JsonObject.builder().put("arguments", known.build()).build());
    }
    return Decoder.completion(call(Methods.COMPLETION_COMPLETE, params.build()));
  }

  /**
   * Calls {@code onChange} whenever the server's prompt list changes, until the returned handle is
   * closed: a legacy server's {@code list_changed} notifications, or a modern
   * {@code subscriptions/listen} stream.
   *
   * <p>Returns once the server is listening, so that a change made after this returns is heard: a
   * modern server has sent {@code notifications/subscriptions/acknowledged}; a legacy HTTP server
   * has answered the GET that opens its event stream (or 405: it offers none). Over legacy stdio
   * notifications share the one channel and need no setup.
   *
   * @throws McpException when the server refuses the subscription
   * @throws RequestTimeoutException when it neither acknowledges nor refuses it within the request
   *     timeout
   * @throws IOException when the stream fails or ends before it was acknowledged
   */
  public AutoCloseable watchPrompts(Runnable onChange) throws IOException {
    return watches.watch(requireNonNull(onChange, "onChange"));
  }

  /**
   * Ends the session (legacy HTTP: DELETE) and stops the server process (stdio: closes its input).
   */
  @Override
  public void close() {
    channel.close();
  }

  /**
   * Sends any request and returns the server's raw result, for callers that want the JSON exactly
   * as the server sent it. The client adds the modern era's {@code _meta} itself.
   *
   * @throws McpException when the server answers with an error
   */
  public JsonObject call(String method, JsonObject params) throws IOException {
    requireNonNull(method, "method");
    requireNonNull(params, "params");
    return resultOf(send(request(method, params)));
  }

  Request request(String method, JsonObject params) {
    JsonObject p = params;
    ServerIdentity identity = server;
    if (identity.modern()) {
      p = params.toBuilder()
          .put(
              "_meta",
              params.object("_meta").orElse(JsonObject.EMPTY).toBuilder()
                  .put("io.modelcontextprotocol/protocolVersion", identity.version())
                  .put(
                      "io.modelcontextprotocol/clientInfo",
                      JsonObject.builder()
                          .put("name", options.clientInfo().name())
                          .put("version", options.clientInfo().version())
                          .build())
                  .put(
                      "io.modelcontextprotocol/clientCapabilities",
                      params
                          .object("_meta")
                          .flatMap(m -> m.object("io.modelcontextprotocol/clientCapabilities"))
                          .orElse(JsonObject.EMPTY))
                  .build())
          .build();
    }
    return new Request(RequestId.of(ids.incrementAndGet()), method, p);
  }

  Response send(Request request) throws IOException {
    return send(request, options.timeout());
  }

  Response send(Request request, Duration timeout) throws IOException {
    String session =
        channel instanceof HttpChannel http && !server.modern() ? http.sessionId() : null;
    try {
      return await(request, timeout);
    } catch (HttpStatusException e) {
      if (e.status() != 404 || session == null || request.method().equals(Methods.INITIALIZE)) {
        throw e;
      }
      // The spec: a 404 to a request with a session id means the session is gone; start a new one
      // and retry.
      renewSession(session);
      return await(request, timeout);
    }
  }

  private synchronized void renewSession(String lost) throws IOException {
    HttpChannel http = (HttpChannel) channel;
    if (!lost.equals(http.sessionId())) {
      return; // another request renewed it already
    }
    LOG.log(Level.INFO, "{0} no longer knows the session; starting a new one", channel.describe());
    http.forgetSession(lost);
    try {
      server = EraDetection.legacy(this);
    } catch (IOException | RuntimeException e) {
      throw new IOException(
          "the session at " + channel.describe() + " ended (HTTP 404) and a new one could not be "
              + "started: " + e.getMessage(),
          e);
    }
    if (watches.any()) {
      http.openEventStream(options.timeout());
    }
  }

  /**
   * Waits for the response; the time the server's forms stay open while it waits (a legacy server
   * asking the user before it answers) is added to {@code timeout}.
   */
  private Response await(Request request, Duration timeout) throws IOException {
    long formsBefore = serverRequests.formNanos();
    long deadline = System.nanoTime() + timeout.toNanos();
    CompletableFuture<Response> answer = channel.call(request);
    try {
      while (true) {
        long left = deadline + (serverRequests.formNanos() - formsBefore) - System.nanoTime();
        boolean asking = serverRequests.formOpen();
        if (left <= 0 && !asking) {
          channel.cancel(request);
          throw new RequestTimeoutException(request.method(), timeout);
        }
        try {
          return answer.get(asking ? Math.max(left, FORM_POLL_NANOS) : left, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          // loop: a form may have been open meanwhile
        }
      }
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(request.method() + " failed: " + describe(e.getCause()), e.getCause());
    } catch (InterruptedException e) {
      channel.cancel(request);
      Thread.currentThread().interrupt();
      throw new IOException(request.method() + " interrupted", e);
    }
  }

  static JsonObject resultOf(Response response) {
    return switch (response) {
      case ResultResponse r -> r.result();
      case ErrorResponse e -> throw new McpException(e.code(), e.message(), e.data());
    };
  }

  Channel channel() {
    return channel;
  }

  ClientOptions options() {
    return options;
  }

  /** What went wrong, in words: the message, without the exception's class name. */
  static String describe(@Nullable Throwable t) {
    if (t == null) {
      return "an unexpected error";
    }
    String message = t.getMessage();
    return message == null || message.isBlank()
        ? "an unexpected error (" + t.getClass().getSimpleName() + ")"
        : message;
  }
}
