package io.promptd.mcp.http.internal.session;

import io.promptd.mcp.http.SessionStore;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * Legacy session ids that any replica holding the same secret can check and read:
 * {@code base64url(payload) "." base64url(HMAC-SHA256(secret, payload))}. The payload is compact
 * JSON: the negotiated version, what the client declared (capabilities only when small), the
 * subject of the caller that opened the session, the issue time, and a random key that names the
 * session in the {@link SessionStore}. Nothing secret is in it; it must not be forged.
 */
public final class SessionTokens {
  /**
   * Ids stay well under header limits: bigger capabilities are left out of the id (the server does
   * not use them).
   */
  private static final int MAX_CAPABILITIES_CHARS = 1024;

  private static final int MAX_INFO_CHARS = 64;
  private static final int MAX_ID_CHARS = 4096;
  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();

  private final SecretKeySpec key;
  private final SecureRandom random = new SecureRandom();

  /** What a valid id says. */
  record Token(
      String key,
      ProtocolVersion version,
      JsonObject capabilities,
      @Nullable Implementation clientInfo,
      @Nullable String subject,
      Instant issued) {}

  public SessionTokens(byte[] secret) {
    if (secret.length < 16) {
      throw new IllegalArgumentException(
          "the session secret must be at least 16 bytes, not " + secret.length);
    }
    this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
  }

  /** A fresh random key: 128 bits, 22 characters. */
  String newKey() {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return B64.encodeToString(bytes);
  }

  /** The id for a new session. */
  String issue(Token t) {
    JsonObject.Builder p = JsonObject.builder()
        .put("k", t.key())
        .put("v", t.version().id())
        .put("t", t.issued().getEpochSecond())
        .put("s", t.subject());
    String caps = JsonCodec.write(t.capabilities());
    if (caps.length() <= MAX_CAPABILITIES_CHARS) {
      p.put("c", t.capabilities());
    }
    Implementation info = t.clientInfo();
    if (info != null) {
      p.put(
          "i",
          JsonObject.builder()
              .put("name", bounded(info.name()))
              .put("version", bounded(info.version()))
              .build());
    }
    String payload =
        B64.encodeToString(JsonCodec.write(p.build()).getBytes(StandardCharsets.UTF_8));
    return payload + "." + B64.encodeToString(mac(payload));
  }

  /**
   * What {@code id} says, or null when it is not an id this secret signed (forged, altered, or
   * another secret's).
   */
  @Nullable
  Token verify(String id) {
    int dot = id.indexOf('.');
    if (id.length() > MAX_ID_CHARS || dot <= 0 || dot != id.lastIndexOf('.')) {
      return null;
    }
    String payload = id.substring(0, dot);
    try {
      byte[] given = B64D.decode(id.substring(dot + 1));
      if (!MessageDigest.isEqual(given, mac(payload))) {
        return null;
      }
      if (!(JsonCodec.parse(new String(B64D.decode(payload), StandardCharsets.UTF_8))
          instanceof JsonObject p)) {
        return null;
      }
      ProtocolVersion version = ProtocolVersion.of(p.string("v").orElse("")).orElse(null);
      String k = p.string("k").orElse(null);
      if (version == null
          || version.isModern()
          || k == null
          || !(p.get("t") instanceof JsonNumber t)
          || !t.isLong()) {
        return null;
      }
      Implementation info = p.object("i")
          .flatMap(i -> i.string("name")
              .flatMap(n -> i.string("version").map(v -> new Implementation(n, null, v))))
          .orElse(null);
      return new Token(
          k,
          version,
          p.object("c").orElse(JsonObject.EMPTY),
          info,
          p.string("s").orElse(null),
          Instant.ofEpochSecond(t.longValue()));
    } catch (IllegalArgumentException | JsonException | DateTimeException e) {
      // Not base64url, not JSON, an issue time no clock can hold: not ours (found by
      // SessionTokenFuzzTest)
      return null;
    }
  }

  private byte[] mac(String payload) {
    try {
      Mac m = Mac.getInstance("HmacSHA256");
      m.init(key);
      return m.doFinal(payload.getBytes(StandardCharsets.US_ASCII));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  private static String bounded(String s) {
    return s.length() <= MAX_INFO_CHARS ? s : s.substring(0, MAX_INFO_CHARS);
  }
}
