package io.promptd.mcp.client;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.protocol.Implementation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * How a client behaves.
 *
 * @param clientInfo the name and version the client reports
 * @param timeout how long to wait for each response before cancelling the request
 * @param probeTimeout how long the stdio era probe ({@code server/discover}) waits before assuming a legacy server
 * @param forms where the server's forms go (elicitation, form mode), or null: the client then declares no
 *     elicitation, and a server cannot ask the user anything. With a handler, a legacy session declares the
 *     {@code elicitation} capability in {@code initialize} and the server's {@code elicitation/create} requests —
 *     whatever request they belong to — are answered through it; on a 2026-07-28 server,
 *     {@link McpClient#getPrompt(String, java.util.Map)} lets the server ask through it, as
 *     {@link McpClient#getPrompt(String, java.util.Map, FormHandler)} does.
 */
public record ClientOptions(Implementation clientInfo, Duration timeout, Duration probeTimeout,
    @Nullable FormHandler forms) {
  /** The POM's version, through a filtered resource. */
  private static final String VERSION = version();

  /** Checks the fields. */
  public ClientOptions {
    requireNonNull(clientInfo, "clientInfo");
    requireNonNull(timeout, "timeout");
    requireNonNull(probeTimeout, "probeTimeout");
  }

  /** Options that show the user no forms. */
  public ClientOptions(Implementation clientInfo, Duration timeout, Duration probeTimeout) {
    this(clientInfo, timeout, probeTimeout, null);
  }

  /** promptd's identity (its version from the build), 30 s per request, 5 s for the probe. */
  public static ClientOptions defaults() {
    return new ClientOptions(new Implementation("promptd-client", null, VERSION), Duration.ofSeconds(30),
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
        throw new IllegalStateException("io/promptd/mcp/client/version.properties is missing or was not filtered");
      }
      return v;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** These options with another per-request timeout. */
  public ClientOptions withTimeout(Duration timeout) {
    return new ClientOptions(clientInfo, timeout, probeTimeout, forms);
  }

  /**
   * These options with a handler for the server's forms (null: none). The time a form stays open does not count
   * against the timeout of the request waiting for it.
   */
  public ClientOptions withForms(@Nullable FormHandler forms) {
    return new ClientOptions(clientInfo, timeout, probeTimeout, forms);
  }
}
