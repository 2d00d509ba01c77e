package io.promptd.mcp.server.internal.state;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.McpException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import org.jspecify.annotations.Nullable;

/**
 * The {@code requestState} of a 2026-07-28 {@code InputRequiredResult}: what the server needs to
 * recognise the retry, carried by the client, integrity-protected with HMAC-SHA256 under a server
 * key (replicas share it, see {@code McpServer.Builder#requestStateSecret}). The payload binds, as
 * multi round-trip requests recommend, the principal (the access token's subject, when auth is on),
 * a short expiry, and the method plus a digest of the prompt name and the arguments the request
 * carried; it also names the arguments the server asked for. It is readable (Base64url JSON), never
 * secret: it holds nothing the client did not send or was not shown.
 */
public final class RequestStates {
  /** Longer state is refused before any decoding or MAC work. */
  public static final int MAX_CHARS = 65_536;
  /** How long a user has to answer the form. */
  public static final Duration TTL = Duration.ofMinutes(10);

  private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

  /**
   * One request's state between its rounds, as the client holds it sealed.
   *
   * @param method the request's method
   * @param digest the digest of what the request names (see {@link #digest})
   * @param subject the principal, or null without auth
   * @param expiresAt the second (epoch) after which the state is refused
   * @param asked the arguments the server asked for
   * @param answered values the user gave in earlier rounds, carried to the next so that only what
   *     is still missing or invalid is asked again
   */
  public record State(
      String method,
      String digest,
      @Nullable String subject,
      long expiresAt,
      List<String> asked,
      Map<String, String> answered) {
    public State {
      asked = List.copyOf(asked);
      answered = Map.copyOf(answered);
    }
  }

  private final SealingKey key;
  private final InstantSource clock;

  /**
   * States sealed with {@code secret} (shared by replicas), or with a random key per process when
   * null.
   */
  RequestStates(byte @Nullable [] secret, InstantSource clock) {
    this.key = new SealingKey(secret);
    this.clock = clock;
  }

  /** A new state for a request by {@code subject}, expiring {@link #TTL} from now. */
  public State issue(
      String method,
      String digest,
      @Nullable String subject,
      List<String> asked,
      Map<String, String> answered) {
    return new State(
        method, digest, subject, clock.instant().plus(TTL).getEpochSecond(), asked, answered);
  }

  public String seal(State s) {
    JsonObject.Builder payload = JsonObject.builder()
        .put("m", s.method())
        .put("d", s.digest())
        .put("e", s.expiresAt())
        .put("a", JsonArray.ofStrings(s.asked()));
    JsonObject.Builder answered = JsonObject.builder();
    new TreeMap<>(s.answered()).forEach(answered::put);
    payload.put("v", answered.build());
    if (s.subject() != null) {
      payload.put("s", s.subject());
    }
    byte[] bytes = JsonCodec.writeBytes(payload.build(), false);
    String sealed = ENCODER.encodeToString(bytes) + '.' + ENCODER.encodeToString(mac(bytes));
    if (sealed.length() > MAX_CHARS) {
      throw McpException.invalidParams(
          "Invalid params: the answers given so far are too long to carry to the next"
              + " round (at most about " + MAX_CHARS * 3 / 4
              + " bytes); pass them as arguments instead");
    }
    return sealed;
  }

  /**
   * The state a retry carries, checked: its MAC, its expiry, that it is presented by the principal
   * it was issued to, and that it belongs to this request ({@code method}, {@code digest}).
   *
   * @throws McpException -32602 saying which check failed (never why the MAC failed: there is
   *     nothing to learn)
   */
  public State open(String text, String method, String digest, @Nullable String subject) {
    if (text.length() > MAX_CHARS) {
      throw invalid("is too long (at most " + MAX_CHARS + " characters)");
    }
    int dot = text.indexOf('.');
    byte[] payload;
    byte[] tag;
    try {
      payload = DECODER.decode(text.substring(0, Math.max(dot, 0)));
      tag = DECODER.decode(text.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      throw invalid("is not one this server issued");
    }
    if (dot < 0 || !MessageDigest.isEqual(tag, mac(payload))) {
      throw invalid("is not one this server issued");
    }
    State s = parse(payload);
    if (clock.instant().getEpochSecond() > s.expiresAt()) {
      throw invalid("has expired: ask again without requestState and inputResponses");
    }
    if (!Objects.equals(s.subject(), subject)) {
      throw invalid("was issued to another principal");
    }
    if (!s.method().equals(method) || !s.digest().equals(digest)) {
      throw invalid(
          "belongs to another request (retry the original request unchanged, with its requestState)");
    }
    return s;
  }

  /**
   * A digest of what a request names: its prompt and the arguments it carried, in a canonical
   * order.
   */
  public static String digest(String name, Map<String, String> arguments) {
    JsonObject.Builder args = JsonObject.builder();
    new TreeMap<>(arguments).forEach(args::put);
    byte[] canonical = JsonCodec.writeBytes(
        JsonObject.builder().put("name", name).put("arguments", args.build()).build(), false);
    try {
      return ENCODER.encodeToString(MessageDigest.getInstance("SHA-256").digest(canonical));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  private static State parse(byte[] payload) {
    try {
      if (JsonCodec.parse(new String(payload, StandardCharsets.UTF_8)) instanceof JsonObject o
          && o.get("m") instanceof JsonString m
          && o.get("d") instanceof JsonString d
          && o.get("e") instanceof JsonNumber e
          && e.isLong()
          && o.get("a") instanceof JsonArray a
          && o.get("v") instanceof JsonObject v) {
        List<String> asked = new ArrayList<>();
        for (Json item : a.elements()) {
          if (item instanceof JsonString s) {
            asked.add(s.value());
          }
        }
        Map<String, String> answered = new TreeMap<>();
        v.members().forEach((k, value) -> {
          if (value instanceof JsonString s) {
            answered.put(k, s.value());
          }
        });
        return new State(
            m.value(), d.value(), o.string("s").orElse(null), e.longValue(), asked, answered);
      }
    } catch (JsonException e) {
      // a state we sealed always parses: fall through
    }
    throw invalid("is not one this server issued");
  }

  private byte[] mac(byte[] payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key.get());
      return mac.doFinal(payload);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
    }
  }

  private static McpException invalid(String why) {
    return McpException.invalidParams("Invalid params: requestState " + why);
  }
}
