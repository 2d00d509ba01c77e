package io.promptd.git;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * A Git host's push webhook, as GitHub, Gitea and Forgejo send it: the raw body signed with a
 * shared secret (HMAC-SHA256 in {@code X-Hub-Signature-256: sha256=HEX}, compared in constant
 * time). A correctly signed push (an {@code X-GitHub-Event} or {@code X-Gitea-Event} of
 * {@code push}, or none) asks the library for a fetch; other signed events are accepted and
 * ignored. Free of any HTTP server: the transport hands over the headers and the body.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class GitWebhook {
  /**
   * The largest body taken: a push event's payload is far smaller; a larger one is refused before
   * it is checked.
   */
  public static final int MAX_BODY_BYTES = 1 << 20;

  /** The least number of bytes a secret has. */
  public static final int MIN_SECRET_BYTES = 16;

  private final byte[] secret;
  private final Runnable onPush;

  /**
   * A webhook with {@code secret} that calls {@code onPush} for each correctly signed push.
   *
   * @throws IllegalArgumentException when the secret is shorter than {@value #MIN_SECRET_BYTES}
   *     bytes
   */
  public GitWebhook(byte[] secret, Runnable onPush) {
    requireNonNull(secret, "secret");
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException("the Git webhook secret has " + secret.length
          + " bytes; at least " + MIN_SECRET_BYTES + " are needed");
    }
    this.secret = secret.clone();
    this.onPush = requireNonNull(onPush, "onPush");
  }

  /**
   * An answer to the Git host.
   *
   * @param status 202 (accepted), 401 (no signature), 403 (a wrong one) or 413 (a body too large)
   * @param message what to tell it: safe to show
   */
  public record Answer(int status, String message) {}

  /**
   * Answers one delivery.
   *
   * @param signature the {@code X-Hub-Signature-256} header, or null
   * @param event the {@code X-GitHub-Event} (or {@code X-Gitea-Event}) header, or null
   * @param body the raw body, or null when it was larger than {@link #MAX_BODY_BYTES}
   */
  public Answer handle(@Nullable String signature, @Nullable String event, byte @Nullable [] body) {
    if (body == null) {
      return new Answer(413, "the webhook body is over " + MAX_BODY_BYTES + " bytes");
    }
    if (signature == null || signature.isBlank()) {
      return new Answer(401, "the webhook needs an X-Hub-Signature-256 header");
    }
    if (!MessageDigest.isEqual(
        expected(body), signature.strip().getBytes(StandardCharsets.US_ASCII))) {
      return new Answer(403, "the webhook's X-Hub-Signature-256 does not match its body");
    }
    if (event != null && !event.strip().equalsIgnoreCase("push")) {
      return new Answer(202, "accepted; only a push event fetches");
    }
    onPush.run();
    return new Answer(202, "accepted; fetching");
  }

  /** {@code sha256=} and the lower-case HMAC-SHA256 of {@code body}. */
  private byte[] expected(byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      return ("sha256=" + HexFormat.of().formatHex(mac.doFinal(body)))
          .getBytes(StandardCharsets.US_ASCII);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }

  /**
   * The signature header a Git host sends with {@code body} signed with {@code secret}; for tests
   * and tools.
   */
  public static String sign(byte[] secret, byte[] body) {
    return new String(new GitWebhook(secret, () -> {}).expected(body), StandardCharsets.US_ASCII);
  }

  @Override
  public String toString() {
    return "GitWebhook[secret of " + secret.length + " bytes]";
  }
}
