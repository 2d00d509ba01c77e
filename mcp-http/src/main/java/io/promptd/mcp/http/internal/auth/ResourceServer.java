package io.promptd.mcp.http.internal.auth;

import io.promptd.mcp.http.OAuthSettings;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The OAuth 2.1 resource server in front of the MCP endpoint: serves the RFC 9728 Protected
 * Resource Metadata, checks each request's bearer token, and answers what the MCP authorization
 * spec asks — 401 with a {@code WWW-Authenticate} challenge naming the metadata, or 403
 * {@code insufficient_scope}.
 */
public final class ResourceServer implements Authenticator, AutoCloseable {
  public static final String METADATA_PATH = "/.well-known/oauth-protected-resource";

  private final IssuerKeys keys;
  private final TokenVerifier verifier;
  private final Set<String> required;
  private final String scopeList;
  private final String metadataUrl;
  private final Set<String> metadataPaths;
  private final byte[] metadata;

  /**
   * @param settings what was configured
   * @param defaultResource the resource when the settings name none (the transport's URI)
   * @param endpointPath the MCP endpoint's path, whose suffixed metadata path is served too
   * @param keys the issuer's keys (started by the caller)
   */
  public ResourceServer(
      OAuthSettings settings, URI defaultResource, String endpointPath, IssuerKeys keys) {
    URI configured = settings.resource();
    URI resource = configured != null ? configured : defaultResource;
    URI aud = settings.audience();
    this.keys = keys;
    this.verifier = new TokenVerifier(
        keys, settings.issuer().toString(), (aud != null ? aud : resource).toString());
    this.required = new TreeSet<>(settings.scopes());
    this.scopeList = String.join(" ", required);
    String resourcePath = resource.getRawPath() == null || resource.getRawPath().equals("/")
        ? ""
        : resource.getRawPath();
    // RFC 9728 section 3.1: the well-known segment goes between the host and the resource's path.
    this.metadataUrl =
        resource.getScheme() + "://" + resource.getRawAuthority() + METADATA_PATH + resourcePath;
    this.metadataPaths = Set.copyOf(new HashSet<>(
        List.of(METADATA_PATH, METADATA_PATH + endpointPath, METADATA_PATH + resourcePath)));
    JsonObject.Builder doc = JsonObject.builder()
        .put("resource", resource.toString())
        .put(
            "authorization_servers",
            JsonArray.ofStrings(List.of(settings.issuer().toString())))
        .put("bearer_methods_supported", JsonArray.ofStrings(List.of("header")));
    if (!required.isEmpty()) {
      doc.put("scopes_supported", JsonArray.ofStrings(List.copyOf(required)));
    }
    this.metadata = JsonCodec.write(doc.build()).getBytes(StandardCharsets.UTF_8);
  }

  /** The paths the metadata is served at. */
  public Set<String> metadataPaths() {
    return metadataPaths;
  }

  /** Serves the Protected Resource Metadata (GET only). */
  public void serveMetadata(Exchange ex) {
    if (!ex.method().equals("GET")) {
      ex.setHeader("Allow", "GET");
      ex.refuse(405, "Method Not Allowed: use GET");
      return;
    }
    ex.setHeader("Cache-Control", "max-age=300");
    ex.json(200, metadata);
  }

  /** The absolute URL of the metadata, as the challenges name it. */
  public String metadataUrl() {
    return metadataUrl;
  }

  /** Whether tokens can be checked now (the issuer's keys are fetched). */
  boolean ready() {
    return keys.ready();
  }

  @Override
  public boolean mayBlock() {
    return true; // a token naming an unknown key makes the issuer's keys be fetched again
  }

  /**
   * Authenticates a request by its {@code Authorization} header: its caller, or a refusal (400, 401
   * or 403).
   */
  @Override
  public Outcome authenticate(List<String> headers) {
    if (headers.isEmpty()) {
      return challenge(401, null, "Unauthorized: an OAuth access token is required");
    }
    String header = headers.getFirst();
    if (headers.size() > 1
        || header.length() < 7
        || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      boolean bearer = header.regionMatches(true, 0, "Bearer", 0, 6);
      if (bearer
          || headers.size()
              > 1) { // RFC 6750 section 3.1: a malformed request is 400 invalid_request
        return challenge(
            400,
            new Problem("invalid_request", "the Authorization header is malformed"),
            "Bad Request: the Authorization header is malformed (one header: Bearer TOKEN)");
      }
      return challenge(401, null, "Unauthorized: an OAuth bearer token is required");
    }
    TokenVerifier.Verdict verdict = verifier.verify(header.substring(7).strip());
    return switch (verdict) {
      case TokenVerifier.Verdict.Invalid(String error, String description) -> {
        boolean malformed = error.equals("invalid_request");
        yield challenge(
            malformed ? 400 : 401,
            new Problem(error, description),
            (malformed ? "Bad Request: " : "Unauthorized: ") + description);
      }
      case TokenVerifier.Verdict.Valid(var caller) ->
        caller.scopes().containsAll(required)
            ? new Authenticated(caller)
            : challenge(
                403,
                new Problem("insufficient_scope", "the access token lacks a required scope"),
                "Forbidden: the access token lacks a required scope (" + scopeList + ")");
    };
  }

  private record Problem(String code, String description) {}

  /**
   * RFC 6750 section 3 / RFC 9728 section 5.1: where to find the metadata, and what scope to ask
   * for.
   */
  private Refused challenge(int status, @Nullable Problem error, String message) {
    StringBuilder b = new StringBuilder("Bearer ");
    if (error != null) {
      b.append("error=\"")
          .append(error.code())
          .append("\", error_description=\"")
          .append(error.description())
          .append("\", ");
    }
    b.append("resource_metadata=\"").append(metadataUrl).append('"');
    if (!scopeList.isEmpty()) {
      b.append(", scope=\"").append(scopeList).append('"');
    }
    return new Refused(status, b.toString(), message);
  }

  @Override
  public void close() {
    keys.close();
  }
}
