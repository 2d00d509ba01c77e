package io.promptd.mcp.spi;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Who sent a request, as its transport authenticated it, and so what it may see. Without
 * authorization in force (stdio, no token, a static shared token) every caller is
 * {@link #UNRESTRICTED}; with OAuth, a caller is the access token's subject and scopes, and a
 * prompt that requires scopes is visible only to a caller that holds all of them.
 *
 * @param subject the token's subject ({@code sub}), or null when no authorization is in force
 * @param scopes the scopes the token grants
 * @param unrestricted whether no authorization is in force, so that every prompt is visible
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record Caller(@Nullable String subject, Set<String> scopes, boolean unrestricted) {
  /** The caller when no authorization is in force: sees everything. */
  public static final Caller UNRESTRICTED = new Caller(null, Set.of(), true);

  /** Checks the fields and copies the scopes. */
  public Caller {
    scopes = Set.copyOf(requireNonNull(scopes, "scopes"));
  }

  /** An authenticated caller: a token's subject and the scopes it grants. */
  public static Caller authenticated(String subject, Set<String> scopes) {
    return new Caller(requireNonNull(subject, "subject"), scopes, false);
  }

  /** Whether this caller may see something that requires {@code required} (all of them). */
  public boolean permits(Set<String> required) {
    return unrestricted || required.isEmpty() || scopes.containsAll(required);
  }
}
