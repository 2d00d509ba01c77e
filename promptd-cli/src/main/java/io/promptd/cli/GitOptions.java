package io.promptd.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The options of {@code promptd serve --git URL[#BRANCH]}: the remote (strings until the Git module
 * parses them, so that JGit is loaded only when a Git source is served), how often it is polled,
 * and the webhook's secret.
 *
 * @param source {@code URL[#BRANCH]} as given, with the SSH key and known-hosts file given
 * @param poll how often to fetch; zero: never (only at start and on a webhook)
 * @param webhookSecret the secret that signs the webhook's deliveries (at least 16 bytes), or null
 *     when {@code POST /hooks/git} is off
 */
record GitOptions(
    GitSource source, Duration poll, ServeOptions.@Nullable SessionSecret webhookSecret) {
  /**
   * The environment variable holding the webhook's secret itself when no
   * {@code --git-webhook-secret-file} is given.
   */
  static final String WEBHOOK_SECRET_VARIABLE = "PROMPTD_GIT_WEBHOOK_SECRET";

  /** The path of the webhook on the HTTP port. */
  static final String WEBHOOK_PATH = "/hooks/git";

  static final Duration DEFAULT_POLL = Duration.ofSeconds(30);

  /** The options the command line gives, collected while {@link ServeOptions#parse} reads it. */
  static final class Parsed {
    @Nullable
    String remote;

    @Nullable
    Duration poll;

    @Nullable
    Path secretFile;

    @Nullable
    Path sshKey;

    @Nullable
    Path knownHosts;

    /**
     * The options, or null without {@code --git}; a usage error when one is given without it or
     * without HTTP.
     */
    @Nullable
    GitOptions build(boolean http, Map<String, String> env) {
      if (remote == null) {
        if (poll != null || secretFile != null) {
          throw new UsageException("--git-poll and --git-webhook-secret-file need --git");
        }
        if (sshKey != null || knownHosts != null) {
          throw new UsageException(GitSource.SSH_OPTIONS + " need --git");
        }
        return null;
      }
      if (secretFile != null && !http) {
        throw new UsageException("--git-webhook-secret-file needs --http (the webhook is POST "
            + WEBHOOK_PATH + " on the HTTP port)");
      }
      ServeOptions.SessionSecret secret = http
          ? ServeOptions.secret(
              secretFile,
              env.get(WEBHOOK_SECRET_VARIABLE),
              "--git-webhook-secret-file",
              WEBHOOK_SECRET_VARIABLE)
          : null;
      return new GitOptions(
          new GitSource(remote, sshKey, knownHosts), poll == null ? DEFAULT_POLL : poll, secret);
    }
  }

  /**
   * A duration as {@code --git-poll} takes it: a number with a unit ({@code 500ms}, {@code 30s},
   * {@code 5m}, {@code 1h}), a plain number of seconds, or {@code 0} (off).
   */
  static Duration duration(String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    try {
      Duration d;
      if (t.matches("\\d+")) {
        d = Duration.ofSeconds(Long.parseLong(t));
      } else if (t.matches("\\d+ms")) {
        d = Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
      } else if (t.matches("\\d+[smh]")) {
        d = Duration.parse("PT" + t.toUpperCase(Locale.ROOT));
      } else {
        throw new UsageException(
            "--git-poll needs a duration such as 30s, 5m or 0 (off), not '" + text + "'");
      }
      if (!d.isZero() && d.toMillis() < 100) {
        throw new UsageException(
            "--git-poll must be 0 (off) or at least 100ms, not '" + text + "'");
      }
      return d;
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      throw new UsageException("--git-poll: '" + text + "' is too large");
    }
  }
}
