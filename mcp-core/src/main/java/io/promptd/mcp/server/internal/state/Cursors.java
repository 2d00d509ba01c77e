package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.jsonrpc.McpException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import org.jspecify.annotations.Nullable;

/**
 * Pagination cursors: the last name served (Base64url, readable by anyone who decodes it) followed
 * by an HMAC tag under a per-process random key. The tag stops a client from forging or altering a
 * cursor; it hides nothing, so a cursor reveals one prompt name the client was already sent.
 * Clients must still treat cursors as opaque, as the spec says. A cursor from another process (a
 * restarted server) is refused like a forged one, unless the processes share a key
 * ({@code McpServer.Builder#cursorSecret}): replicas behind a load balancer.
 */
public final class Cursors {
  private static final int TAG_BYTES = 12;
  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  private final SealingKey key;

  /**
   * Cursors sealed with {@code secret}, which other processes may share; a random key when null.
   */
  Cursors(byte @Nullable [] secret) {
    this.key = new SealingKey(secret);
  }

  public String encode(String lastName) {
    byte[] payload = lastName.getBytes(StandardCharsets.UTF_8);
    return ENCODER.encodeToString(payload) + '.' + ENCODER.encodeToString(tag(payload));
  }

  /** The last name a cursor names; -32602 for anything this process did not issue. */
  public String decode(String cursor) {
    int dot = cursor.indexOf('.');
    if (dot < 0 || cursor.length() > 4096) {
      throw invalid();
    }
    byte[] payload;
    byte[] tag;
    try {
      payload = DECODER.decode(cursor.substring(0, dot));
      tag = DECODER.decode(cursor.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      throw invalid();
    }
    if (!MessageDigest.isEqual(tag, tag(payload))) {
      throw invalid();
    }
    return new String(payload, StandardCharsets.UTF_8);
  }

  private byte[] tag(byte[] payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key.get());
      return Arrays.copyOf(mac.doFinal(payload), TAG_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is unavailable", e);
    }
  }

  private static McpException invalid() {
    return McpException.invalidParams(
        "Invalid cursor: not one this server issued (start again without a cursor)");
  }
}
