package io.promptd.mcp.client;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Implementation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How a client behaves.
 *
 * @param clientInfo the name and version the client reports
 * @param timeout how long to wait for each response before cancelling the request
 * @param probeTimeout how long the stdio era probe ({@code server/discover}) waits before assuming
 *     a legacy server
 * @param forms where the server's forms go (elicitation, form mode), or null: the client then
 *     declares no elicitation, and a server cannot ask the user anything. With a handler, a legacy
 *     session declares the {@code elicitation} capability in {@code initialize} and the server's
 *     {@code elicitation/create} requests — whatever request they belong to — are answered through
 *     it; on a 2026-07-28 server, {@link McpClient#getPrompt(String, java.util.Map)} lets the
 *     server ask through it, as {@link McpClient#getPrompt(String, java.util.Map, FormHandler)}
 *     does.
 * @param headers HTTP headers sent with every request to an HTTP server, such as
 *     {@code Authorization} (ignored over stdio); their values are secrets, never shown by
 *     {@link #toString()}
 */
@Stability(Stability.Tier.STABLE)
public record ClientOptions(
    Implementation clientInfo,
    Duration timeout,
    Duration probeTimeout,
    @Nullable FormHandler forms,
    Map<String, String> headers) {
  /** The POM's version, through a filtered resource. */
  private static final String VERSION = version();

  /** Headers the client sets itself, which {@link #withHeader} refuses. */
  private static final Set<String> OWN_HEADERS = Set.of(
      "content-type",
      "accept",
      "mcp-session-id",
      "mcp-protocol-version",
      "mcp-method",
      "mcp-name",
      "host",
      "content-length",
      "connection");

  /** Checks the fields and copies the headers. */
  public ClientOptions {
    requireNonNull(clientInfo, "clientInfo");
    requireNonNull(timeout, "timeout");
    requireNonNull(probeTimeout, "probeTimeout");
    Map<String, String> checked = new LinkedHashMap<>();
    requireNonNull(headers, "headers")
        .forEach((k, v) -> checked.put(checkName(k), checkValue(k, v)));
    headers = Collections.unmodifiableMap(checked);
  }

  /** Options that send no extra headers. */
  public ClientOptions(
      Implementation clientInfo,
      Duration timeout,
      Duration probeTimeout,
      @Nullable FormHandler forms) {
    this(clientInfo, timeout, probeTimeout, forms, Map.of());
  }

  /** Options that show the user no forms. */
  public ClientOptions(Implementation clientInfo, Duration timeout, Duration probeTimeout) {
    this(clientInfo, timeout, probeTimeout, null);
  }

  /** promptd's identity (its version from the build), 30 s per request, 5 s for the probe. */
  public static ClientOptions defaults() {
    return new ClientOptions(
        new Implementation("promptd-client", null, VERSION),
        Duration.ofSeconds(30),
        Duration.ofSeconds(5));
  }

  private static String version() {
    try (InputStream in = ClientOptions.class.getResourceAsStream("version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      String v = p.getProperty("version", "");
      if (v.isBlank() || v.startsWith("${")) {
        throw new IllegalStateException(
            "io/promptd/mcp/client/version.properties is missing or was not filtered");
      }
      return v;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** These options with another per-request timeout. */
  public ClientOptions withTimeout(Duration timeout) {
    return new ClientOptions(clientInfo, timeout, probeTimeout, forms, headers);
  }

  /**
   * These options with {@code name: value} sent with every HTTP request (replacing a header of that
   * name).
   *
   * @throws IllegalArgumentException for a name that is not an HTTP token, one the client sets
   *     itself ({@code Content-Type}, {@code Mcp-Session-Id}, …), or a value with a line break or
   *     control character
   */
  public ClientOptions withHeader(String name, String value) {
    Map<String, String> next = new LinkedHashMap<>();
    headers.forEach((k, v) -> {
      if (!k.equalsIgnoreCase(name)) {
        next.put(k, v);
      }
    });
    next.put(name, value);
    return new ClientOptions(clientInfo, timeout, probeTimeout, forms, next);
  }

  /** These options with {@code Authorization: Bearer TOKEN} on every HTTP request. */
  public ClientOptions withBearerToken(String token) {
    requireNonNull(token, "token");
    if (token.isBlank() || token.strip().contains(" ")) {
      throw new IllegalArgumentException("a bearer token is one word without spaces");
    }
    return withHeader("Authorization", "Bearer " + token.strip());
  }

  /** The options, with header values hidden (they hold tokens). */
  @Override
  public String toString() {
    return "ClientOptions[clientInfo=" + clientInfo + ", timeout=" + timeout + ", probeTimeout="
        + probeTimeout + ", forms=" + (forms == null ? "none" : "set") + ", headers="
        + headers.keySet() + "]";
  }

  private static String checkName(String name) {
    requireNonNull(name, "header name");
    if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
      throw new IllegalArgumentException("'" + name + "' is not an HTTP header name");
    }
    if (OWN_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("the client sets " + name + " itself");
    }
    return name;
  }

  private static String checkValue(String name, String value) {
    requireNonNull(value, "header value");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c < 0x20 && c != '\t') || c == 0x7f) {
        throw new IllegalArgumentException(
            "the value of header " + name + " holds a control character");
      }
    }
    return value;
  }

  /**
   * These options with a handler for the server's forms (null: none). The time a form stays open
   * does not count against the timeout of the request waiting for it.
   */
  public ClientOptions withForms(@Nullable FormHandler forms) {
    return new ClientOptions(clientInfo, timeout, probeTimeout, forms, headers);
  }
}
