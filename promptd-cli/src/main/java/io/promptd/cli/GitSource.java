package io.promptd.cli;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A Git branch as the command line names it, for {@code serve --git} and {@code publish
 * --from-git}: {@code URL[#BRANCH]} and, for an SSH remote, the key ({@code --git-ssh-key}) and
 * known-hosts file ({@code --git-known-hosts}) given. Strings and paths only, so that reading a
 * command line loads no Git class; {@link GitPublish#remote} turns it into the Git module's remote.
 *
 * @param spec {@code URL[#BRANCH]} as given
 * @param sshKey the private key file given, or null (then {@code PROMPTD_GIT_SSH_KEY}, else
 *     ~/.ssh's default keys)
 * @param knownHosts the known-hosts file given, or null (then {@code PROMPTD_GIT_KNOWN_HOSTS}, else
 *     ~/.ssh/known_hosts)
 */
record GitSource(
    String spec, @Nullable Path sshKey, @Nullable Path knownHosts) {
  /** The options' names, for the usage error when they come without a Git source. */
  static final String SSH_OPTIONS = "--git-ssh-key and --git-known-hosts";
}
