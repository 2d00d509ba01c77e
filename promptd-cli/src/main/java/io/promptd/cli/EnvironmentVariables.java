package io.promptd.cli;

import io.promptd.git.GitRemote;
import io.promptd.git.GitSsh;
import io.promptd.store.StoreUrl;
import java.util.List;

/**
 * Every environment variable promptd or its launchers read, with what it sets: the source of
 * docs/cli.md's table, so that a variable added to the code and not to the list fails a test.
 */
final class EnvironmentVariables {
  /** One variable: its name, and what it sets in a sentence. */
  record Variable(String name, String sets) {}

  /**
   * In the order the table shows them: the server, its sources, the launcher, then the system's.
   */
  static final List<Variable> ALL = List.of(
      new Variable(
          ServeOptions.TOKEN_VARIABLE,
          "the bearer token `serve --http` requires (as `--token`), and the one `list`, `get` and"
              + " `clients` send to a server"),
      new Variable(
          ServeOptions.PUBLIC_URL_VARIABLE,
          "the address people reach the server at (as `--public-url`; several, comma-separated)"),
      new Variable(
          ServeOptions.ISSUER_VARIABLE,
          "the OAuth authorization server whose access tokens are accepted (as `--oauth-issuer`)"),
      new Variable(
          ServeOptions.AUDIENCE_VARIABLE,
          "the audience access tokens must name (as `--oauth-audience`)"),
      new Variable(
          ServeOptions.SCOPES_VARIABLE,
          "scopes every access token must grant, comma-separated (as `--oauth-scopes`)"),
      new Variable(
          ServeOptions.CATALOG_VARIABLE,
          "`1` (or `true`) serves the web catalog with `--http` (as `--catalog`)"),
      new Variable(
          ServeOptions.SESSION_SECRET_VARIABLE,
          "the key replicas share to resume each other's sessions, itself (`--session-secret-file`"
              + " names a file holding it)"),
      new Variable(
          StoreUrl.VARIABLE,
          "the PostgreSQL store's URL wherever `--store URL` is not given (`serve` with no folder,"
              + " `publish`, `history`, `rollback`, `label`, `usage`, `store init`)"),
      new Variable(
          GitRemote.TOKEN_VARIABLE,
          "the password sent to an HTTPS Git remote that asks for one (a personal access token)"),
      new Variable(
          GitRemote.USERNAME_VARIABLE, "the user sent with that token (default `x-access-token`)"),
      new Variable(
          GitSsh.KEY_VARIABLE, "the private key file for an SSH Git remote (as `--git-ssh-key`)"),
      new Variable(
          GitSsh.KNOWN_HOSTS_VARIABLE,
          "the known-hosts file an SSH Git remote's host key must be in (as `--git-known-hosts`)"),
      new Variable(
          GitOptions.WEBHOOK_SECRET_VARIABLE,
          "the secret a Git host signs its push webhooks with, itself"
              + " (`--git-webhook-secret-file` names a file holding it)"),
      new Variable(
          "PROMPTD_JAVA_HOME",
          "the JDK (21 or newer) the launchers run promptd on, tried before `JAVA_HOME` and the"
              + " `java` on `PATH`"),
      new Variable(
          "PROMPTD_JAVA_OPTS", "more options for the JVM, e.g. `-Dpromptd.log.level=DEBUG`"),
      new Variable(
          "PROMPTD_MAX_HEAP",
          "the JVM's heap cap, e.g. `512m` or `4g` (default: a quarter of the memory, at most 2"
              + " GiB)"),
      new Variable(
          "PROMPTD_NO_CACHE", "`1` makes the launcher neither make nor use its start-up caches"),
      new Variable("JAVA_HOME", "the JDK the launchers try when `PROMPTD_JAVA_HOME` is not set"),
      new Variable(
          "LC_ALL, LC_MESSAGES, LANG",
          "the language of the command line's errors and, without `--locale`, of the server's"
              + " forms and errors (the first that names one promptd speaks)"),
      new Variable(
          "XDG_CACHE_HOME",
          "where the index of a large library and Git sources' clones are kept (`promptd/` in it;"
              + " default `~/.cache`)"),
      new Variable("USER", "the author `publish` records when `git config user.name` has none"));

  private EnvironmentVariables() {}

  /** docs/cli.md's table of {@link #ALL}, in Markdown. */
  static String table() {
    StringBuilder out = new StringBuilder("| variable | sets |\n| --- | --- |\n");
    for (Variable v : ALL) {
      out.append("| ")
          .append(v.name().replaceAll("([A-Z_]+)", "`$1`"))
          .append(" | ")
          .append(v.sets())
          .append(" |\n");
    }
    return out.toString();
  }
}
