package io.promptd.git;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How promptd reaches an SSH remote ({@code ssh://} or {@code user@host:path}): the private key it
 * logs in with, and the known-hosts file the server's host key must be in. A host whose key is not
 * in that file, or whose key differs from the one there, is refused; promptd never adds a key to
 * the file. The key's contents never appear in logs or errors, only its path.
 *
 * @param key the private key file (RSA or ECDSA; OpenSSH or PEM, without a passphrase; Ed25519 is
 *     not supported), or null for the key files ssh tries by default in {@code ~/.ssh}
 *     ({@code id_rsa}, {@code id_ecdsa} and the like)
 * @param knownHosts the known-hosts file (OpenSSH format); it need not exist, but then every host
 *     is unknown
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record GitSsh(@Nullable Path key, Path knownHosts) {
  /** The environment variable naming the private key file when no key is given. */
  public static final String KEY_VARIABLE = "PROMPTD_GIT_SSH_KEY";

  /** The environment variable naming the known-hosts file when none is given. */
  public static final String KNOWN_HOSTS_VARIABLE = "PROMPTD_GIT_KNOWN_HOSTS";

  /** Checks that the key, when given, is a readable file. */
  public GitSsh {
    requireNonNull(knownHosts, "knownHosts");
    if (key != null && !(Files.isRegularFile(key) && Files.isReadable(key))) {
      throw new IllegalArgumentException("the SSH key " + key + " is not a readable file");
    }
  }

  /**
   * The key and known-hosts file given, each else from {@code env} ({@value #KEY_VARIABLE},
   * {@value #KNOWN_HOSTS_VARIABLE}), the known-hosts file else {@code ~/.ssh/known_hosts}.
   *
   * @throws IllegalArgumentException when the key is no readable file
   */
  public static GitSsh of(@Nullable Path key, @Nullable Path knownHosts, Map<String, String> env) {
    requireNonNull(env, "env");
    return new GitSsh(
        key != null ? key : path(env.get(KEY_VARIABLE)),
        knownHosts != null
            ? knownHosts
            : Objects.requireNonNullElse(
                path(env.get(KNOWN_HOSTS_VARIABLE)),
                Path.of(System.getProperty("user.home"), ".ssh", "known_hosts")));
  }

  private static @Nullable Path path(@Nullable String value) {
    return value == null || value.isBlank() ? null : Path.of(value.strip());
  }
}
