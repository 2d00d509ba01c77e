package io.promptd.git;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A branch of a Git repository, as {@code URL[#BRANCH]} names it on the command line:
 * {@code file://}, {@code git://}, {@code http://}, {@code https://} (an HTTPS remote may be given
 * a token, sent as basic-auth password), or SSH: {@code ssh://[user@]host[:port]/path} or
 * {@code [user@]host:path} (with a key and a known-hosts file, {@link GitSsh}). Without a branch,
 * the remote's default branch (its {@code HEAD}) is followed.
 *
 * @param url the repository's URL, without the branch
 * @param branch the branch, or null for the remote's {@code HEAD}
 * @param token the password sent to an HTTPS remote that asks for one, or null; never in
 *     {@link #toString()}
 * @param username the user name sent with {@code token}
 * @param ssh how an SSH remote is reached; null for any other remote
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record GitRemote(
    String url,
    @Nullable String branch,
    @Nullable String token,
    String username,
    @Nullable GitSsh ssh) {
  /**
   * The environment variable whose value is sent as the password to an HTTPS remote that asks for
   * one.
   */
  public static final String TOKEN_VARIABLE = "PROMPTD_GIT_TOKEN";

  /**
   * The environment variable naming the user sent with the token (default {@code x-access-token}).
   */
  public static final String USERNAME_VARIABLE = "PROMPTD_GIT_USERNAME";

  /**
   * git's scp-like SSH syntax, {@code [user@]host:path}: no {@code ://}, a host of two or more
   * characters (so that {@code C:} is no host) without a slash, and a path that is not a port.
   */
  private static final Pattern SCP_LIKE =
      Pattern.compile("(?:[A-Za-z0-9._-]+@)?[A-Za-z0-9.-]{2,}:(?!//)(?!\\d+$)[^\\s]+");

  /**
   * Checks the URL's scheme, the branch's name, and that SSH settings come with an SSH remote and
   * only with one.
   */
  public GitRemote {
    requireNonNull(url, "url");
    requireNonNull(username, "username");
    String scheme = scheme(url);
    if (scheme == null) {
      throw new IllegalArgumentException("'" + redact(url)
          + "' is not a Git URL: use file://, git://, http://, https://, ssh:// or user@host:path");
    }
    if ((ssh != null) != scheme.equals("ssh")) {
      throw new IllegalArgumentException(
          ssh == null
              ? "the SSH remote " + redact(url) + " needs a key and a known-hosts file (GitSsh)"
              : "an SSH key is for ssh:// and user@host:path remotes, not " + redact(url));
    }
    if (branch != null
        && (branch.isBlank()
            || branch.startsWith("-")
            || branch.contains("..")
            || branch.contains(":")
            || branch.chars().anyMatch(c -> c <= ' ' || c == '~' || c == '^' || c == '\\'))) {
      throw new IllegalArgumentException("'" + branch + "' is not a branch name");
    }
  }

  /**
   * Parses {@code URL[#BRANCH]}, with the token and user name from {@code env}
   * ({@value #TOKEN_VARIABLE}, {@value #USERNAME_VARIABLE}) and, for an SSH remote, the key and
   * known-hosts file from {@code env} or their defaults ({@link GitSsh#of}).
   *
   * @throws IllegalArgumentException when the URL is no supported Git URL or the branch no branch
   *     name
   */
  public static GitRemote parse(String spec, Map<String, String> env) {
    return parse(spec, env, null, null);
  }

  /**
   * Parses {@code URL[#BRANCH]} as {@link #parse(String, Map)} does; an SSH remote logs in with
   * {@code sshKey} and checks its host key against {@code knownHosts}, each else as
   * {@link GitSsh#of} finds it.
   *
   * @throws IllegalArgumentException when the URL is no supported Git URL, the branch no branch
   *     name, the key no readable file, or a key or known-hosts file is given for a remote that is
   *     not SSH
   */
  public static GitRemote parse(
      String spec, Map<String, String> env, @Nullable Path sshKey, @Nullable Path knownHosts) {
    requireNonNull(spec, "spec");
    requireNonNull(env, "env");
    int hash = spec.lastIndexOf('#');
    String url = hash < 0 ? spec : spec.substring(0, hash);
    String branch = hash < 0 ? null : spec.substring(hash + 1);
    if (branch != null && branch.startsWith("refs/heads/")) {
      branch = branch.substring("refs/heads/".length());
    }
    String token = env.get(TOKEN_VARIABLE);
    String username = env.get(USERNAME_VARIABLE);
    boolean ssh = "ssh".equals(scheme(url.strip()));
    if (!ssh && (sshKey != null || knownHosts != null)) {
      throw new IllegalArgumentException(
          "an SSH key or known-hosts file is for ssh:// and user@host:path remotes, not "
              + redact(url.strip()));
    }
    return new GitRemote(
        url.strip(),
        branch,
        token == null || token.isBlank() ? null : token.strip(),
        username == null || username.isBlank() ? "x-access-token" : username.strip(),
        ssh ? GitSsh.of(sshKey, knownHosts, env) : null);
  }

  /** Whether a token is sent: only to an HTTPS remote, never in clear text. */
  boolean sendsToken() {
    return token != null && "https".equals(scheme(url));
  }

  /** The local ref the branch is fetched into. */
  String trackingRef() {
    return "refs/remotes/origin/" + (branch == null ? "HEAD" : branch);
  }

  /** What is fetched: the branch, forced, so that a force-push is followed. */
  String refSpec() {
    return "+" + (branch == null ? "HEAD" : "refs/heads/" + branch) + ":" + trackingRef();
  }

  /**
   * Where the clone of this remote lives under {@code cacheRoot}: a folder named by the SHA-256 of
   * the URL (without any credentials in it), so that each remote has its own and a restart finds it
   * again.
   */
  public Path cloneIn(Path cacheRoot) {
    requireNonNull(cacheRoot, "cacheRoot");
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(redact(url).getBytes(StandardCharsets.UTF_8));
      return cacheRoot.resolve(HexFormat.of().formatHex(digest, 0, 16));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  /**
   * The default cache root: {@code $XDG_CACHE_HOME/promptd/git}, else {@code ~/.cache/promptd/git}.
   *
   * @param env the environment ({@code XDG_CACHE_HOME})
   */
  public static Path defaultCacheRoot(Map<String, String> env) {
    String xdg = env.get("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()
        ? Path.of(xdg)
        : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("promptd").resolve("git");
  }

  /**
   * {@code text} with this remote's token and any password in its URL replaced by {@code ***}: safe
   * to log.
   */
  String redacted(@Nullable String text) {
    if (text == null) {
      return "";
    }
    String out = text;
    if (token != null) {
      out = out.replace(token, "***");
    }
    String raw = url;
    String safe = redact(url);
    return raw.equals(safe) ? out : out.replace(raw, safe);
  }

  /** The URL and branch, without credentials: safe to log. */
  @Override
  public String toString() {
    return redact(url) + (branch == null ? "" : "#" + branch);
  }

  /**
   * The URL's scheme: {@code file}, {@code git}, {@code http}, {@code https} or {@code ssh} (also
   * for git's scp-like {@code [user@]host:path}), else null.
   */
  private static @Nullable String scheme(String url) {
    if (SCP_LIKE.matcher(url).matches()) {
      return "ssh";
    }
    try {
      String scheme = new URI(url).getScheme();
      if (scheme == null) {
        return null;
      }
      String s = scheme.toLowerCase(Locale.ROOT);
      return switch (s) {
        case "file", "git", "http", "https", "ssh" -> s;
        default -> null;
      };
    } catch (URISyntaxException e) {
      return null;
    }
  }

  /** The URL without the user information ({@code user:password@}) of its authority. */
  private static String redact(String url) {
    int start = url.indexOf("://");
    if (start < 0) {
      return url;
    }
    int slash = url.indexOf('/', start + 3);
    int end = slash < 0 ? url.length() : slash;
    int at = url.lastIndexOf('@', end - 1);
    return at > start ? url.substring(0, start + 3) + "***@" + url.substring(at + 1) : url;
  }
}
