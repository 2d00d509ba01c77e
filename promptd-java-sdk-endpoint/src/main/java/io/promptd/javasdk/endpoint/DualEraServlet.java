package io.promptd.javasdk.endpoint;

import static java.util.Objects.requireNonNull;

import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.server.PromptCatalog;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Both MCP protocol eras at one URL on the official MCP Java SDK: a servlet made of the SDK's
 * legacy streamable HTTP transport ({@link HttpServletStreamableServerTransportProvider}) and its
 * 2026-07-28 transport ({@link HttpServletMcpTransport}), neither of which serves the other era.
 * Each request goes to one of them:
 *
 * <ul>
 *   <li>a POST with {@code MCP-Protocol-Version: 2026-07-28}, or whose message is
 *       {@code server/discover} or names a protocol version in {@code params._meta}, to the modern
 *       one;
 *   <li>{@code initialize}, a POST with an {@code Mcp-Session-Id} or a legacy
 *       {@code MCP-Protocol-Version}, a batch, every {@code GET} (the session's stream) and
 *       {@code DELETE} to the legacy one.
 * </ul>
 *
 * <p>A POST's body is read once, up to {@link #DEFAULT_MAX_REQUEST_BYTES} (or the limit given), and
 * handed on: a larger one is 413; one that is not JSON is 400 with a -32700 error; a message of
 * neither era (a request other than {@code initialize} without a session or a version) is 400 with
 * -32600. Those bodies are JSON-RPC errors and never name a class.
 *
 * <p>Reached on a loopback address, it serves only requests whose {@code Host} (and {@code Origin},
 * when there is one) names a loopback host, and answers others 403, against DNS rebinding; on any
 * other address that is the deployment's filters' to decide.
 *
 * <p>Register it at the path both transports were built with ({@code /mcp} by default), with async
 * support on: the SDK's streams need it.
 *
 * <pre>{@code
 * DualEraServlet servlet = DualEraServlet.serving(library.catalog());
 * Tomcat.addServlet(context, "mcp", servlet).addMapping("/mcp");
 * }</pre>
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class DualEraServlet extends HttpServlet {
  /** The largest POST body read by default: 4 MiB. */
  public static final int DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

  private static final long serialVersionUID = 1L;
  private static final System.Logger LOG = System.getLogger(DualEraServlet.class.getName());

  private final transient HttpServlet legacy;
  private final transient HttpServlet modern;
  private final int maxRequestBytes;
  private final transient List<AutoCloseable> owned;

  DualEraServlet(
      HttpServlet legacy, HttpServlet modern, int maxRequestBytes, List<AutoCloseable> owned) {
    if (maxRequestBytes < 1 || maxRequestBytes == Integer.MAX_VALUE) {
      throw new IllegalArgumentException("DualEraServlet: maxRequestBytes must be between 1 and "
          + (Integer.MAX_VALUE - 1) + ", got " + maxRequestBytes);
    }
    this.legacy = requireNonNull(legacy, "legacy");
    this.modern = requireNonNull(modern, "modern");
    this.maxRequestBytes = maxRequestBytes;
    this.owned = List.copyOf(owned);
  }

  /**
   * One URL for these two SDK transports, built with the same endpoint path, each with its server
   * built on it. {@link #destroy()} destroys both servlets (the modern one closes its server); the
   * legacy server is its builder's to close.
   */
  public static DualEraServlet of(
      HttpServletStreamableServerTransportProvider legacy, HttpServletMcpTransport modern) {
    return of(legacy, modern, DEFAULT_MAX_REQUEST_BYTES);
  }

  /**
   * As {@link #of(HttpServletStreamableServerTransportProvider, HttpServletMcpTransport)}, reading
   * at most {@code maxRequestBytes} of a POST.
   */
  public static DualEraServlet of(
      HttpServletStreamableServerTransportProvider legacy,
      HttpServletMcpTransport modern,
      int maxRequestBytes) {
    return new DualEraServlet(legacy, modern, maxRequestBytes, List.of());
  }

  /**
   * A catalog's prompts and completions in both eras at {@code /mcp}: one SDK server of each stack,
   * built here and closed by {@link #destroy()}. Prompts added, changed or removed later are served
   * at once, and each era's clients are told of the change as that era tells them.
   */
  public static DualEraServlet serving(PromptCatalog catalog) {
    return serving(catalog, "/mcp");
  }

  /**
   * As {@link #serving(PromptCatalog)}, at {@code endpoint} (the path the servlet is mapped to).
   */
  public static DualEraServlet serving(PromptCatalog catalog, String endpoint) {
    requireNonNull(catalog, "catalog");
    requireNonNull(endpoint, "endpoint");
    if (!endpoint.startsWith("/")) {
      throw new IllegalArgumentException(
          "DualEraServlet.serving: the endpoint must be a path starting with '/', got '" + endpoint
              + "'");
    }
    return CatalogServers.open(catalog, endpoint, DEFAULT_MAX_REQUEST_BYTES);
  }

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    legacy.init(config);
    modern.init(config);
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    try {
      LoopbackGuard.check(request);
    } catch (Refusal refusal) {
      refuse(response, refusal);
      return;
    }
    if (!request.getMethod().equals("POST")) {
      // GET streams, DELETE and the verbs it refuses are a session's; a 2026-07-28 client's own
      // GET is the modern transport's to refuse (405).
      (Era.ofOtherVerb(request.getHeader(Era.VERSION_HEADER), request.getHeader(Era.SESSION_HEADER))
                  == Era.MODERN
              ? modern
              : legacy)
          .service(request, response);
      return;
    }
    BufferedRequest buffered;
    Era era;
    try {
      byte[] body = BufferedRequest.read(request, maxRequestBytes);
      era = Era.of(
          request.getHeader(Era.VERSION_HEADER),
          request.getHeader(Era.SESSION_HEADER),
          parse(body));
      buffered = new BufferedRequest(request, body);
    } catch (Refusal refusal) {
      refuse(response, refusal);
      return;
    }
    (era == Era.MODERN ? modern : legacy).service(buffered, response);
  }

  private static Json parse(byte[] body) throws Refusal {
    try {
      return JsonCodec.parse(body, 0, body.length);
    } catch (JsonException e) {
      throw new Refusal(
          HttpServletResponse.SC_BAD_REQUEST,
          ErrorCodes.PARSE_ERROR,
          "the body is not JSON: " + e.getMessage(),
          null);
    }
  }

  private static void refuse(HttpServletResponse response, Refusal refusal) throws IOException {
    JsonObject error = JsonObject.builder()
        .put("code", refusal.code())
        .put("message", requireNonNull(refusal.getMessage()))
        .build();
    JsonObject body = JsonObject.builder()
        .put("jsonrpc", "2.0")
        .put("id", refusal.id())
        .put("error", error)
        .build();
    byte[] bytes = JsonCodec.writeBytes(body, false);
    response.setStatus(refusal.status());
    response.setContentType("application/json");
    response.setCharacterEncoding(StandardCharsets.UTF_8.name());
    response.setContentLength(bytes.length);
    response.getOutputStream().write(bytes);
  }

  @Override
  public void destroy() {
    modern.destroy();
    legacy.destroy();
    for (AutoCloseable resource : owned.reversed()) {
      try {
        resource.close();
      } catch (Exception e) {
        LOG.log(Level.WARNING, "closing the endpoint's SDK servers", e);
      }
    }
    super.destroy();
  }
}
