package io.promptd.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code promptd}: serve folders of prompt files over MCP, or check them.
 *
 * <p>Exit codes: 0 success; 1 {@code check} found errors (or {@code publish} refused files with
 * errors); 2 usage error (also a prompt name the store does not hold); 4 the server, the store or
 * its input failed ({@code store init}: also the role lacks a right); 5 the server answered a
 * client verb with an error ({@code health}: answered other than 200); 6 the server could not be
 * reached or the connection failed ({@code health}: or did not answer in time); 7 {@code publish}
 * or {@code rollback} lost a race with another publish (nothing written; run it again), or
 * {@code label revert} was refused because a label the promotion moved has moved since (nothing
 * moved). The launcher script uses 3 for "no JDK / build failed".
 */
public final class Main {
  static final int OK = 0;
  static final int CHECK_FAILED = 1;
  static final int USAGE = 2;
  static final int FAILED = 4;
  static final int SERVER_ERROR = 5;
  static final int CONNECTION_FAILED = 6;
  static final int CONFLICT = 7;

  static final String USAGE_TEXT = """
      Usage:
        promptd serve [options] DIR...   serve every prompt file under DIR over MCP (stdio by default)
        promptd check [--clients] PATH...   lint the prompt files in folders, or single files; report every
                                         error as FILE:LINE; exit 1 when any has an error; --clients:
                                         also warn of what each known MCP client will do with each prompt
        promptd import SRC DEST [--force]   write every prompt file under SRC (Claude Code, VS Code, Codex, Cursor,
                                         Gemini CLI, Dotprompt, Prompty) to DEST as NAME.prompt.md; exit 1 when
                                         one could not be converted
        promptd clients [DIR...] [--http URL [--token-env VAR | --oauth | --client-id ID [--callback-port N]]]
                        [--npx] [--client ID] [--name NAME]
                                         print each MCP client's ready configuration and install links for DIR
                                         (absolute paths; the current folder when none), or for an HTTP server
                                         whose token is in $VAR (default PROMPTD_TOKEN), or where people sign in
                                         with OAuth (found in the server's metadata, or --oauth): each client
                                         registers itself, or uses the public client ID with callbacks on
                                         localhost port N (default 8976); --npx: started as
                                         npx -y promptd serve DIR (promptd from npm); --client ID prints one:
                                         claude-code, gemini-cli, qwen-code, vscode, vscode-link, vscode-cli,
                                         cursor, cursor-link, opencode, copilot-cli, codex, claude-desktop, inspector
        promptd list     SERVER [--json]                     list every prompt (all pages)
        promptd get      NAME [key=value|key=@file|key=@-]... SERVER [--json] [--no-input]
                                         on a terminal, a 2026-07-28 server may ask for missing arguments
                                         (a form on stderr); --no-input fails with the server's reason instead
        promptd complete NAME ARG PREFIX [key=value]... SERVER [--json]
        promptd watch    SERVER [--json]                     print each prompt list change
          SERVER is --stdio "command ..." or --url http://127.0.0.1:PORT/mcp; --timeout SECONDS (default 30);
            with --url: --token TOKEN (env PROMPTD_TOKEN) sends "Authorization: Bearer TOKEN",
            --header "K: V" (repeatable) sends any header
        promptd store init --store URL  create the store's tables in an empty database (or bring them up
                                         to date; publish and serve do it on first use too); run it as the
                                         role promptd connects as, which needs to log in, to connect, and to
                                         create tables in the database's schema public: its owner may
                                         (CREATE DATABASE DB OWNER ROLE); a role that may not is told which
                                         GRANT it lacks, exit 4
        promptd publish DIR --store URL [--author NAME] [--allow-errors] [--dry-run] [--label LABEL]
                                         make the prompt store hold exactly DIR's files (one transaction);
                                         --dry-run lists what would change and writes nothing; the author
                                         defaults to `git config user.name`, else $USER; --label points LABEL
                                         at every file the store then holds, in the same transaction
        promptd publish --from-git URL[#BRANCH] --store URL [--author NAME] [--allow-errors] [--dry-run]
                [--git-ssh-key FILE] [--git-known-hosts FILE]
                                         publish the head commit of a Git branch as DIR is published; each
                                         version's author is NAME (git COMMIT), NAME defaulting to the
                                         commit's author; the SSH options are serve's
        promptd history NAME --store URL  every version of the file(s) of prompt NAME, their labels,
                                         every move of a label on them, and the promotions that moved them
        promptd history --store URL      every promotion (label promote, label revert), one line each: its
                                         number, FROM (reverts #N for a revert), TO, who, when and each
                                         file's move
        promptd rollback NAME VERSION --store URL   publish version VERSION of NAME's file(s) again
        promptd label set NAME VERSION LABEL --store URL   point LABEL at version VERSION of NAME's file(s)
        promptd label rm NAME LABEL --store URL    remove LABEL from NAME's file(s)
        promptd label list [NAME] --store URL      the labels of NAME's file(s), or of every file
        promptd label split LABEL NAME VERSION:WEIGHT VERSION:WEIGHT... --store URL
                                         A/B: LABEL serves each caller one of these versions of prompt NAME,
                                         by weight, the same one every time (by token subject, else session,
                                         else address); any other move of LABEL on NAME ends the split
        promptd label promote FROM TO --store URL [--only NAME]... [--dry-run]
                                         point TO at exactly what FROM points at, every file (or NAME's) in
                                         one step; a file TO labels and FROM does not loses TO
        promptd label revert PROMOTION --store URL [--dry-run]
                                         put every label promotion number PROMOTION (see history --store)
                                         moved back where it pointed before, in one step, recorded as a
                                         promotion; refused whole, exit 7, when one has moved since
        promptd label protect LABEL --scope SCOPE --store URL
                                         moving LABEL over the management API (serve --manage) needs an OAuth
                                         token with SCOPE; the command line still moves it
        promptd label unprotect LABEL --store URL  lift LABEL's protection
                                         (NAME as for history; a skill by its folder's path; LABEL is 1-64 of
                                         a-z 0-9 . _ -; 'latest' is each file's newest version and cannot be
                                         set; the OS user is recorded with each move)
        promptd usage [NAME] --store URL [--since 7d]   uses per prompt, version and label since 7d (or
                                         12h, 30m) as `serve --store` servers wrote them: by outcome
                                         (rendered, refused, form_asked, form_declined, error), mean ms
                                         (history, label list and usage print aligned columns with short
                                         digests in a terminal, tab-separated lines otherwise; --table,
                                         --tsv or --json chooses)
          URL is postgresql://USER:PASSWORD@HOST:PORT/DATABASE (env PROMPTD_STORE)
        promptd health URL [--ready] [--timeout SECONDS]
                                         GET a running server's /healthz (/readyz with --ready; no token
                                         needed) and exit 0 on 200; else one line on stderr, exit 5 for another
                                         answer, 6 for none within SECONDS (default 5). URL is the MCP URL
                                         (http://HOST:PORT/mcp) or a base URL such as the admin port's
                                         (http://127.0.0.1:9464/)
        promptd --version | --help

      serve options:
        --store URL          serve the prompt store (PostgreSQL) instead of folders, kept current by its change
                             feed (env PROMPTD_STORE when no DIR is given)
        --label LABEL        with --store: serve the version of each file that LABEL points at; a prompt, resource
                             or skill file without LABEL is not served, other files (partials, attachments,
                             _folder.yaml) follow their newest version unless labelled; a label move reaches
                             clients as list_changed. Repeat over HTTP to serve several labels: the first on
                             /mcp, each further one on /labels/LABEL/mcp (stdio serves one)
        --manage             with --store, --http and --oauth-issuer: the management API at /manage/v1/ (versions,
                             labels, diffs, label moves; see /manage/v1/openapi.json and docs/lifecycle.md). A
                             caller sees and moves only the files it may see over MCP; protected labels need
                             their scope
        --manage-scope S     with --manage (required): the scope every management API call needs
        --manage-admin-scope A   with --manage: the scope for moves that change who may see prompts (a label
                             on a _folder.yaml, or to a version with other scopes:) and for moving a label this
                             server serves (--label) that has no protection of its own; without it only the
                             command line makes such moves
        --usage-retention 90d  with --store: delete usage rows older than this (days or hours: 90d, 36h;
                             default 90d) 5 s after the start and hourly; a client's self-reported name and
                             version are bounded (at most 20 clients a prompt a day, further ones as `other`)
        --git URL[#BRANCH]   serve the head commit of a Git branch (default: the remote's HEAD) instead of
                             folders: file://, git://, http(s):// (token: env PROMPTD_GIT_TOKEN), ssh:// or
                             user@host:path; cloned under $XDG_CACHE_HOME/promptd/git; a new commit is a new
                             library version (list_changed)
        --git-ssh-key FILE   the private key (no passphrase) for an SSH remote (env PROMPTD_GIT_SSH_KEY; default:
                             the usual key files in ~/.ssh)
        --git-known-hosts FILE
                             the SSH remote's host key must be in FILE (env PROMPTD_GIT_KNOWN_HOSTS; default
                             ~/.ssh/known_hosts); an unknown or changed host key is refused, FILE never written
        --git-poll DURATION  fetch the branch this often: 500ms, 30s, 5m, 1h (default 30s; 0: off)
        --git-webhook-secret-file FILE
                             with --http: POST /hooks/git, signed with the secret in FILE (X-Hub-Signature-256),
                             fetches at once (env PROMPTD_GIT_WEBHOOK_SECRET: the secret itself)
        --page-size N        prompts per prompts/list page (default 500)
        --max-line-bytes N   longest stdio message accepted (default 4194304)
        --no-watch           do not reload files when they change
        --completion-rate N  completion/complete requests per second per client: a legacy session, else the token's
                             subject, else the client's address (stdio: the process); bursts of 2N; past it a clear
                             error with retryAfterMs (default 20; 0: no limit)
        --no-elicit          never ask users for missing or invalid prompt arguments (clients that declare
                             form elicitation are asked by default; see docs/clients.md)
        --no-form-first      list required arguments as required to clients that can show forms too (by
                             default they are listed as optional, so a bare slash command reaches promptd,
                             which asks for every argument in one form)
        --confirm-free-text auto|always|never
                             show free-text values a client passed in that form, for checking (default auto:
                             for clients that cut typed text at the first space, such as Claude Code)
        --fold auto|always|never
                             fold each rendered prompt into one text message (default auto: for clients that
                             use only the first message, such as Gemini CLI and Qwen Code; front matter fold:
                             overrides it per prompt)
        --locale TAG         the language of the forms and argument errors users read: en, zh-CN or ja
                             (default from LC_ALL, LC_MESSAGES or LANG; English for any other; front
                             matter locale: overrides it per prompt); the web catalog speaks it to a browser
                             that asks for none of the three (Accept-Language)
        --prompts-as-tools   also offer the prompts as two tools, list_prompts and get_prompt, for clients that
                             only use tools
        --no-skill-prompts   do not offer each skill as a prompt (by default a skill is also a slash command that
                             puts its SKILL.md into the conversation; front matter user-invocable: false opts one out)
        --skill-files-budget SIZE
                             bytes of a skill's other text files (scripts, references) its prompt embeds after
                             its SKILL.md, in all (default 64k; 1m, 65536 and 0 also do; 0: links only); larger,
                             binary and later files are links stating their type and size
        --http [PORT]        serve Streamable HTTP at /mcp instead of stdio (port 3000 unless given)
        --catalog            also serve the web catalog at / (browse, fill and render the prompts in a browser;
                             with --token or OAuth it asks for a token; without, only this machine may load it
                             unless --public-url is given; env PROMPTD_CATALOG=1 with --http); each further
                             --label's at /labels/NAME/; with --manage also versions, diffs, promotion, usage
        --catalog-client-id ID
                             with OAuth: the catalog's "Log in" button signs people in as this public client
                             of the identity provider (authorization code + PKCE; register each catalog page's
                             URL as a redirect URI and its origin as a web origin)
        --host ADDR          address to bind (default 127.0.0.1; any other needs --token or OAuth)
        --port PORT          HTTP port (0: any free one)
        --token TOKEN        require "Authorization: Bearer TOKEN" (env PROMPTD_TOKEN)
        --public-url URL     a URL clients reach the server by, e.g. https://prompts.example.com/mcp; its host and
                             origin are accepted (repeatable; env PROMPTD_PUBLIC_URL, comma-separated); one beyond
                             this machine without --token or OAuth is warned of (refused with --trust-proxy)
        --trust-proxy [ADDR,...]
                             believe X-Forwarded-Proto/Host/For from these proxies (addresses or CIDR ranges;
                             bare: a proxy on this machine); the client is the rightmost X-Forwarded-For address
                             that is not a trusted proxy's, and other peers' forwarding headers are ignored
        --max-connections-per-address N
                             open connections one client address may hold (default 256; trusted proxies exempt)
        --max-streams-per-client N
                             event streams (GET, subscriptions/listen, /sse) one client may hold open; one more
                             gets 429 (default 32; a client is its OAuth subject, else its address)
        --header-timeout S   seconds a request's headers may take to arrive whole (default 20)
        --min-body-rate B    bytes per second a request body must arrive at, on average, once it has taken longer
                             than --header-timeout; a slower one's connection is closed (default 1024)
        --max-connections N  open connections the MCP port holds in all; more wait until one closes, while those
                             open are served (default 10000; the admin port is not counted)
        --tls-cert PEM       serve HTTPS with this certificate chain (with --tls-key; renewed files are picked up)
        --tls-key PEM        the unencrypted PKCS#8 private key for --tls-cert
        --admin-port P       serve /metrics (Prometheus), /healthz and /readyz on port P (0: any free port)
        --admin-host ADDR    the address the admin port binds (default 127.0.0.1: this machine only)
        --access-log FILE    one JSON line per HTTP request, appended to FILE ('-': stderr); off by default
        --oauth-issuer URL   be an OAuth 2.1 resource server: require JWT access tokens from this issuer, its keys
                             found by RFC 8414 / OpenID discovery (env PROMPTD_OAUTH_ISSUER)
        --oauth-audience URL the audience tokens must name (default: the first public URL, else the local one;
                             env PROMPTD_OAUTH_AUDIENCE)
        --oauth-scopes A,B   scopes every token must grant (env PROMPTD_OAUTH_SCOPES)
        --session-secret FILE sign legacy session ids with the key in FILE, so that replicas sharing it serve each
                             other's sessions behind a load balancer (env PROMPTD_SESSION_SECRET: the key itself)
        --max-sessions-per-caller N
                             legacy HTTP sessions one caller may hold: the token's subject with OAuth, else the
                             client's address (a shared --token does not tell people apart); at N, opening another
                             ends the caller's oldest idle one (default 200; 10,000 in all: when they are
                             taken, a new one ends the oldest idle one of the caller holding the most)
      """;

  private Main() {}

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    System.setErr(stderr(System.err, System.getenv()));
    System.exit(run(Arrays.asList(args), System.err));
  }

  /**
   * Standard error in the codeset the environment names: UTF-8 when its character locale
   * ({@code LC_ALL}, {@code LC_CTYPE}, {@code LANG}) says UTF-8 though the JVM fell back to ASCII
   * (that locale is not installed), so a Japanese or Chinese message reaches the terminal as text,
   * not as question marks; else {@code err} as the JVM made it.
   */
  static PrintStream stderr(PrintStream err, Map<String, String> environment) {
    for (String variable : List.of("LC_ALL", "LC_CTYPE", "LANG")) {
      String value = environment.get(variable);
      if (value != null && !value.isBlank()) {
        String codeset = value.contains(".") ? value.substring(value.indexOf('.') + 1) : "";
        boolean utf8 = codeset.toLowerCase(Locale.ROOT).replace("-", "").startsWith("utf8");
        return utf8 && !err.charset().equals(StandardCharsets.UTF_8)
            ? new PrintStream(
                new BufferedOutputStream(new FileOutputStream(FileDescriptor.err)),
                true,
                StandardCharsets.UTF_8)
            : err;
      }
    }
    return err;
  }

  static int run(List<String> args, PrintStream err) {
    // Usage errors in the user's language (LC_ALL, LC_MESSAGES, LANG); the usage text stays
    // English.
    CliText text = CliText.of(System.getenv(), err.charset());
    if (args.isEmpty()) {
      err.print(USAGE_TEXT);
      return USAGE;
    }
    if (args.getFirst().equals("help") || args.contains("--help") || args.contains("-h")) {
      String command = args.getFirst().equals("help")
          ? (args.size() > 1 ? args.get(1) : null)
          : args.getFirst().startsWith("-") ? null : args.getFirst();
      String help = command == null ? USAGE_TEXT : help(command);
      if (help == null) {
        err.println("promptd: "
            + text.get(
                "command.unknown.list", String.valueOf(command), String.join(", ", COMMANDS)));
        return USAGE;
      }
      err.print(help);
      return OK;
    }
    if (args.getFirst().equals("--version")) {
      String version = Main.class.getPackage().getImplementationVersion();
      err.println("promptd " + (version == null ? "(development build)" : version));
      return OK;
    }
    List<String> rest = List.copyOf(args.subList(1, args.size()));
    try {
      return switch (args.getFirst()) {
        // With promptd.jar alone on the class path, as the image's health check runs it (see
        // Health).
        case "health" -> Health.run(rest, System.out, err);
        case "serve" -> Serve.run(ServeOptions.parse(rest), err);
        case "check" -> Check.parse(rest).run(System.out);
        case "import" -> Import.run(rest, System.out);
        case "clients" -> Clients.run(rest, System.out);
        case "train-cache" -> Training.run(rest, err);
        case "publish", "history", "rollback" ->
          StoreCommand.parse(args.getFirst(), rest).run(System.out, err);
        case "store" -> StoreInit.parse(rest).run(System.out, err);
        case "label" -> LabelCommand.parse(rest).run(System.out, err);
        case "usage" -> UsageCommand.parse(rest).run(System.out, err);
        case "list", "get", "complete", "watch" ->
          ClientCommand.parse(args.getFirst(), rest).run(System.out, err);
        default -> throw UsageException.of("command.unknown", args.getFirst());
      };
    } catch (UsageException e) {
      err.println("promptd: " + e.message(text));
      String command = COMMANDS.contains(args.getFirst()) ? args.getFirst() : null;
      err.println("promptd: "
          + (command == null ? text.get("see.help") : text.get("see.help.command", command)));
      return USAGE;
    }
  }

  /** The commands, in the order the usage text lists them. */
  static final List<String> COMMANDS = List.of(
      "serve",
      "check",
      "import",
      "clients",
      "list",
      "get",
      "complete",
      "watch",
      "store",
      "publish",
      "history",
      "rollback",
      "label",
      "usage",
      "health");

  /**
   * One command's part of the usage text — its lines, the lines that continue them, and for
   * {@code serve} its options — or null for a name no command has.
   */
  static @org.jspecify.annotations.Nullable String help(String command) {
    if (!COMMANDS.contains(command)) {
      return null;
    }
    // The notes under a group of commands ("SERVER is …", "URL is …") belong to each command of the
    // group.
    String note = switch (command) {
      case "list", "get", "complete", "watch" -> "    SERVER is";
      case "store", "publish", "history", "rollback", "label", "usage" -> "    URL is";
      default -> null;
    };
    StringBuilder out = new StringBuilder("Usage:\n");
    boolean in = false;
    for (String line : USAGE_TEXT.split("\n", -1)) {
      if (line.startsWith("  promptd ")) {
        in = line.startsWith("  promptd " + command + " ") || line.equals("  promptd " + command);
      } else if (line.startsWith("    ") && !line.startsWith("      ")) {
        in = note != null && line.startsWith(note);
      } else if (!line.startsWith("      ")) {
        in = false;
      }
      if (in) {
        out.append(line).append('\n');
      }
    }
    if (command.equals("serve")) {
      out.append(USAGE_TEXT, USAGE_TEXT.indexOf("\nserve options:") + 1, USAGE_TEXT.length());
    }
    return out.toString();
  }
}
