package io.promptd.mcp.http;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.spi.Caller;
import java.io.IOException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** A request to an {@link HttpMount}: what it may read of it. */
@Stability(Stability.Tier.STABLE)
public interface MountRequest {
  /** The HTTP method, such as {@code GET}. */
  String method();

  /**
   * The request target's path, such as {@code /catalog/app.js} (the mount's path: mounts serve
   * exact paths).
   */
  String path();

  /**
   * The request target's raw query string (after {@code ?}, not decoded), or null when it has none.
   */
  @Nullable
  String query();

  /**
   * Who sent the request: for a mount added with {@link HttpTransportBuilder#authenticatedMount},
   * the caller the transport's authentication admitted (an OAuth token's subject and scopes);
   * otherwise {@link Caller#UNRESTRICTED}.
   */
  Caller caller();

  /** The first value of a header, or null when absent. */
  @Nullable
  String header(String name);

  /** Every value of a header, in order (a header may repeat); empty when absent. */
  List<String> headers(String name);

  /**
   * Reads the whole request body, blocking, taking at most {@code max} bytes: a mount that takes a
   * body (a webhook) reads it once, before answering.
   *
   * @param max the most bytes taken
   * @return the body (empty when there is none), or null when it is longer than {@code max}
   * @throws IOException when the body cannot be read (the client went away)
   */
  byte @Nullable [] body(int max) throws IOException;

  /**
   * The client's address: the peer's, or the forwarded one when the transport trusts a proxy; null
   * when unknown.
   */
  @Nullable
  String remoteAddress();

  /**
   * Whether the visitor is on this machine: the request named it by a loopback name or address in
   * {@code Host}, and came from a loopback address.
   */
  boolean fromThisMachine();
}
