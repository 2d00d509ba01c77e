package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A prompt served as one of several variants by weight, each caller always getting the same one: an
 * A/B split. The choice is a function of the salt, the caller's key and the weights alone (SHA-256
 * of salt and key, reduced modulo the total weight and placed on the variants' weights in order),
 * so every replica and every restart chooses alike, and changing the weights moves only the callers
 * whose point crosses a boundary.
 *
 * <p>The key names the caller: its access token's subject under authorization, else its legacy
 * session, else its address (a stateless HTTP request), else the local user (stdio).
 * {@link PromptDefinition#withSplit} attaches a split to the prompt whose name it is served under;
 * {@code prompts/list}, {@code prompts/get}, {@code completion/complete} and prompts-as-tools then
 * show and render the caller's variant, and {@link PromptUse#variant()} names it.
 *
 * @param salt mixed into every choice, so that two splits choose independently (promptd: the label
 *     and the file)
 * @param variants the variants in order, at least two, tags distinct
 */
@Stability(Stability.Tier.STABLE)
public record PromptSplit(String salt, List<Variant> variants) {
  /**
   * One variant of a split prompt.
   *
   * @param tag names the variant in usage counts (promptd: the version's content digest)
   * @param weight its share, a positive number; shares are relative to the split's total
   * @param definition what is served to the callers who get it, under the split prompt's name;
   *     never split itself
   */
  public record Variant(String tag, int weight, PromptDefinition definition) {
    /** Checks the fields. */
    public Variant {
      requireNonNull(tag, "tag");
      requireNonNull(definition, "definition");
      if (weight <= 0) {
        throw new IllegalArgumentException("a split's weight must be positive, not " + weight);
      }
      if (definition.split() != null) {
        throw new IllegalArgumentException("a split's variant cannot be split itself");
      }
    }
  }

  /** Checks the fields and copies the variants. */
  public PromptSplit {
    requireNonNull(salt, "salt");
    variants = List.copyOf(requireNonNull(variants, "variants"));
    if (variants.size() < 2) {
      throw new IllegalArgumentException("a split needs at least two variants");
    }
    long total = 0;
    Set<String> tags = new HashSet<>();
    for (Variant v : variants) {
      total += v.weight();
      if (!tags.add(v.tag())) {
        throw new IllegalArgumentException(
            "a split's variants need distinct tags: '" + v.tag() + "'");
      }
    }
    if (total > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "a split's weights add up to more than " + Integer.MAX_VALUE);
    }
  }

  /**
   * The variant for the caller known as {@code key}: the same for the same salt, key and weights,
   * everywhere.
   */
  public Variant pick(String key) {
    requireNonNull(key, "key");
    long total = 0;
    for (Variant v : variants) {
      total += v.weight();
    }
    long point = Long.remainderUnsigned(point(salt, key), total);
    for (Variant v : variants) {
      if (point < v.weight()) {
        return v;
      }
      point -= v.weight();
    }
    throw new AssertionError("a point below the total weight falls on a variant");
  }

  /** The first 64 bits of SHA-256(salt, NUL, key). */
  private static long point(String salt, String key) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(salt.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
      sha.update(key.getBytes(StandardCharsets.UTF_8));
      return ByteBuffer.wrap(sha.digest()).getLong();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }
}
