package io.promptd.mcp.http.internal.auth;

import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The authorization server's signing keys: its metadata found by RFC 8414 or OpenID Connect
 * discovery, then its JWKS, fetched in the background (retried with backoff while the issuer cannot
 * be reached, refreshed now and then) and again, at most once per {@code minRefresh}, when a token
 * names a key the set does not hold (key rotation).
 */
public final class IssuerKeys implements JWKSource<SecurityContext>, AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");
  private static final int MAX_DOCUMENT_BYTES = 512 * 1024;
  private static final Duration FETCH_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(60);
  private static final Duration REFRESH_EVERY = Duration.ofHours(1);

  private final URI issuer;
  private final long minRefreshNanos;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .followRedirects(HttpClient.Redirect.NEVER)
      .build();
  private final Object refreshLock = new Object();
  private volatile @Nullable JWKSet keys;
  private volatile @Nullable URI jwksUri;
  private volatile @Nullable String issuerName;
  private volatile @Nullable String problem =
      "the authorization server's keys have not been fetched yet";
  private volatile long lastOnDemand;
  /** Counts key-set fetches. */
  private final AtomicLong generation = new AtomicLong();

  private volatile boolean onDemandYet;
  private volatile boolean closed;
  private @Nullable Thread loader;

  public IssuerKeys(URI issuer, Duration minRefresh) {
    this.issuer = issuer;
    this.minRefreshNanos = minRefresh.toNanos();
  }

  /** Starts fetching the keys in the background; never blocks or fails. */
  public synchronized void start() {
    if (loader == null) {
      loader = Thread.ofVirtual().name("promptd-oauth-keys").start(this::loadLoop);
    }
  }

  /** Whether the keys have been fetched, so that tokens can be checked. */
  public boolean ready() {
    return keys != null;
  }

  /** Why the keys cannot be used yet, or null when they can. */
  @Nullable
  public String problem() {
    return keys != null ? null : problem;
  }

  /**
   * The issuer as the authorization server's metadata spells it (what {@code iss} must equal), once
   * known.
   */
  @Nullable
  String issuerName() {
    return issuerName;
  }

  @Override
  public List<JWK> get(JWKSelector selector, @Nullable SecurityContext context)
      throws KeySourceException {
    JWKSet set = keys;
    if (set == null) {
      throw new KeySourceException("the authorization server's keys are not available");
    }
    long seen = generation.get();
    List<JWK> found = selector.select(set);
    if (!found.isEmpty() || !mayRefreshNow()) {
      return found;
    }
    synchronized (refreshLock) {
      if (generation.get() != seen) { // another request refreshed while this one waited
        return selector.select(requireKeys());
      }
      if (!mayRefreshNow()) {
        return found;
      }
      onDemandYet = true;
      lastOnDemand = System.nanoTime();
      try {
        fetchKeys();
        LOG.log(Level.DEBUG, "refreshed the keys of {0} for an unknown key id", issuer);
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.WARNING, "could not refresh the keys of {0}: {1}", issuer, e.getMessage());
      }
      return selector.select(requireKeys());
    }
  }

  private JWKSet requireKeys() {
    JWKSet set = keys;
    return set == null ? new JWKSet() : set;
  }

  /**
   * A token names a key we lack: refresh, unless the last such refresh was too recent (no refresh
   * storms).
   */
  private boolean mayRefreshNow() {
    return !closed && (!onDemandYet || System.nanoTime() - lastOnDemand >= minRefreshNanos);
  }

  private void loadLoop() {
    long backoff = 1_000;
    while (!closed) {
      long sleep;
      try {
        synchronized (refreshLock) {
          fetchKeys();
        }
        backoff = 1_000;
        sleep = REFRESH_EVERY.toMillis();
      } catch (IOException | RuntimeException e) {
        problem = "the authorization server " + issuer + " could not be reached: " + e.getMessage();
        LOG.log(
            Level.WARNING,
            "{0}; retrying in {1} s (tokens cannot be accepted until then)",
            problem,
            backoff / 1000);
        sleep = backoff;
        backoff = Math.min(backoff * 2, MAX_BACKOFF.toMillis());
      }
      try {
        Thread.sleep(sleep);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Discovers the JWKS URI (once) and fetches the key set. */
  private void fetchKeys() throws IOException {
    URI uri = jwksUri;
    if (uri == null) {
      uri = discover();
      jwksUri = uri;
    }
    String body = fetch(uri);
    try {
      JWKSet set = JWKSet.parse(body);
      if (set.getKeys().isEmpty()) {
        throw new IOException("the key set at " + uri + " holds no keys");
      }
      keys = set.toPublicJWKSet();
      generation.incrementAndGet();
      problem = null;
    } catch (ParseException e) {
      throw new IOException("the key set at " + uri + " is not a JWK set: " + e.getMessage(), e);
    }
  }

  /**
   * The JWKS URI from the first discovery document found, in the order the MCP authorization spec
   * gives.
   */
  private URI discover() throws IOException {
    List<String> tried = new ArrayList<>();
    for (URI candidate : discoveryUris(issuer)) {
      String body;
      try {
        body = fetch(candidate);
      } catch (IOException e) {
        tried.add(candidate + " (" + e.getMessage() + ")");
        continue;
      }
      JsonObject metadata;
      try {
        if (!(JsonCodec.parse(body) instanceof JsonObject o)) {
          throw new IOException("the metadata at " + candidate + " is not a JSON object");
        }
        metadata = o;
      } catch (JsonException e) {
        throw new IOException(
            "the metadata at " + candidate + " is not JSON: " + e.getMessage(), e);
      }
      String name = metadata.string("issuer").orElse("");
      if (!sameIssuer(
          name, issuer.toString())) { // RFC 8414 section 3.3: no metadata from a stranger
        throw new IOException(
            "the metadata at " + candidate + " names issuer '" + name + "', not " + issuer);
      }
      String jwks = metadata
          .string("jwks_uri")
          .orElseThrow(() -> new IOException("the metadata at " + candidate + " has no jwks_uri"));
      issuerName = name;
      try {
        return URI.create(jwks);
      } catch (IllegalArgumentException e) {
        throw new IOException("the metadata at " + candidate + " has an invalid jwks_uri", e);
      }
    }
    throw new IOException(
        "no authorization server metadata found; tried " + String.join(", ", tried));
  }

  /**
   * RFC 8414 (path inserted), then OpenID Connect (path inserted, then appended), as MCP clients
   * try them.
   */
  static List<URI> discoveryUris(URI issuer) {
    String origin = issuer.getScheme() + "://" + issuer.getRawAuthority();
    String path = issuer.getRawPath() == null ? "" : issuer.getRawPath();
    if (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    if (path.isEmpty()) {
      return List.of(
          URI.create(origin + "/.well-known/oauth-authorization-server"),
          URI.create(origin + "/.well-known/openid-configuration"));
    }
    return List.of(
        URI.create(origin + "/.well-known/oauth-authorization-server" + path),
        URI.create(origin + "/.well-known/openid-configuration" + path),
        URI.create(origin + path + "/.well-known/openid-configuration"));
  }

  /**
   * Equal but for one trailing slash, which providers add or omit (Auth0 ends its issuer with one).
   */
  static boolean sameIssuer(String a, String b) {
    return strip(a).equals(strip(b));
  }

  private static String strip(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }

  private String fetch(URI uri) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(uri)
        .timeout(FETCH_TIMEOUT)
        .header("Accept", "application/json")
        .GET()
        .build();
    HttpResponse<InputStream> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (IllegalArgumentException e) {
      throw new IOException("not an HTTP URL: " + uri, e);
    }
    try (InputStream in = response.body()) {
      if (response.statusCode() != 200) {
        throw new IOException("HTTP " + response.statusCode() + " from " + uri);
      }
      byte[] bytes = in.readNBytes(MAX_DOCUMENT_BYTES + 1);
      if (bytes.length > MAX_DOCUMENT_BYTES) {
        throw new IOException(uri + " answered more than " + MAX_DOCUMENT_BYTES + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    Thread t = loader;
    if (t != null) {
      t.interrupt();
    }
    http.close();
  }
}
