package io.promptd.mcp.server.internal.state;

import java.security.SecureRandom;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The HMAC-SHA256 key that seals what the server hands a client to give back (cursors, request
 * states): a secret that replicas share, or a random key of this process, made on first use:
 * seeding {@link SecureRandom} loads the JDK's security providers, a cost a cold start that may
 * never seal anything should not pay.
 */
final class SealingKey {
  private volatile @Nullable SecretKeySpec key;

  /** A key from {@code secret}, or a random one (made when first used) when null. */
  SealingKey(byte @Nullable [] secret) {
    this.key = secret == null ? null : new SecretKeySpec(secret.clone(), "HmacSHA256");
  }

  SecretKeySpec get() {
    SecretKeySpec k = key;
    if (k == null) {
      synchronized (this) {
        k = key;
        if (k == null) {
          byte[] secret = new byte[32];
          new SecureRandom().nextBytes(secret);
          k = new SecretKeySpec(secret, "HmacSHA256");
          key = k;
        }
      }
    }
    return k;
  }
}
