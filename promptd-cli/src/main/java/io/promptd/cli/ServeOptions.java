package io.promptd.cli;

import io.promptd.library.LibraryOptions;
import io.promptd.mcp.http.HttpLimits;
import io.promptd.mcp.http.OAuthSettings;
import io.promptd.mcp.server.FreeTextConfirmation;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.server.PromptFolding;
import io.promptd.mcp.server.ServerText;
import io.promptd.mcp.stdio.StdioTransport;
import io.promptd.store.StoreUrl;
import io.promptd.store.StoreUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * The options of {@code promptd serve}.
 *
 * @param served what is served: folders, a prompt store or a Git branch
 * @param pageSize prompts per {@code prompts/list} page
 * @param maxLineBytes the longest stdio message accepted
 * @param watch whether to reload files when they change
 * @param http whether to serve Streamable HTTP instead of stdio
 * @param host the address HTTP binds (default 127.0.0.1)
 * @param port the HTTP port (0: any free port)
 * @param token a bearer token HTTP clients must present, or null
 * @param publicUrls the URLs clients reach the HTTP server by
 * @param connections the trusted proxies and the limits on clients' connections and streams
 * @param tlsCert the PEM certificate chain to serve HTTPS with, or null
 * @param tlsKey the PEM private key of {@code tlsCert}, or null
 * @param ops the admin port and the access log
 * @param oauth OAuth resource-server settings (HTTP clients must present an access token), or null
 * @param sessionSecret the key that signs legacy session ids, shared by replicas, or null for a
 *     per-process one
 * @param completionRate {@code completion/complete} requests per second per client (bursts of twice
 *     as many); 0: no limit
 * @param sessionsPerCaller how many legacy HTTP sessions one caller (token subject, else client
 *     address) may hold
 * @param forms how users are asked for prompt arguments in clients that can show forms
 *     ({@code --no-elicit}, {@code --no-form-first}, {@code --confirm-free-text})
 * @param fold whether rendered prompts are folded into one text message ({@code --fold}): for
 *     clients that use only the first (auto, the default), for all or for none
 * @param promptsAsTools whether the prompts are offered as the tools {@code list_prompts} and
 *     {@code get_prompt} too ({@code --prompts-as-tools})
 * @param skillPrompts whether each skill is offered as a prompt too ({@code --no-skill-prompts}:
 *     not)
 * @param skillFilesBudget how many bytes of its other text files a skill's prompt embeds at most
 *     ({@code --skill-files-budget}; 0: links only)
 * @param catalog whether the HTTP server serves the web catalog at {@code /} ({@code --catalog})
 * @param catalogClientId the public OAuth client the catalog logs people in as
 *     ({@code --catalog-client-id}; needs {@code --catalog} and {@code --oauth-issuer}), or null:
 *     it asks for a token to paste
 * @param manage who may use the management API the HTTP server serves at {@code /manage/v1/}
 *     ({@code --manage} {@code --manage-scope S [--manage-admin-scope A]}; needs {@code --store},
 *     {@code --http} and OAuth), or null for none
 * @param locale the language of the forms and errors users read ({@code --locale TAG}; default the
 *     environment's, {@link #locale})
 */
record ServeOptions(
    Served served,
    int pageSize,
    int maxLineBytes,
    boolean watch,
    boolean http,
    String host,
    int port,
    @Nullable String token,
    List<URI> publicUrls,
    ConnectionOptions connections,
    @Nullable Path tlsCert,
    @Nullable Path tlsKey,
    OpsOptions ops,
    @Nullable OAuthSettings oauth,
    @Nullable SessionSecret sessionSecret,
    int completionRate,
    int sessionsPerCaller,
    FormOptions forms,
    PromptFolding fold,
    boolean promptsAsTools,
    boolean skillPrompts,
    long skillFilesBudget,
    boolean catalog,
    @Nullable String catalogClientId,
    ManageApi.@Nullable Access manage,
    Locale locale) {
  /** The environment variable that supplies the bearer token when {@code --token} is not given. */
  static final String TOKEN_VARIABLE = "PROMPTD_TOKEN";
  /**
   * The environment variable that supplies public URLs (comma-separated) when no
   * {@code --public-url} is given.
   */
  static final String PUBLIC_URL_VARIABLE = "PROMPTD_PUBLIC_URL";
  /**
   * The environment variables that supply {@code --oauth-issuer}, {@code --oauth-audience},
   * {@code --oauth-scopes}.
   */
  static final String ISSUER_VARIABLE = "PROMPTD_OAUTH_ISSUER";

  static final String AUDIENCE_VARIABLE = "PROMPTD_OAUTH_AUDIENCE";
  static final String SCOPES_VARIABLE = "PROMPTD_OAUTH_SCOPES";
  /**
   * The environment variable that turns the web catalog of an HTTP server on ({@code 1} or
   * {@code true}).
   */
  static final String CATALOG_VARIABLE = "PROMPTD_CATALOG";
  /**
   * The environment variable that holds the session secret itself when {@code --session-secret} is
   * not given.
   */
  static final String SESSION_SECRET_VARIABLE = "PROMPTD_SESSION_SECRET";

  /** The key that signs legacy session ids; its text never appears in {@link #toString()}. */
  static final class SessionSecret {
    private final byte[] bytes;

    SessionSecret(byte[] bytes) {
      this.bytes = bytes.clone();
    }

    byte[] bytes() {
      return bytes.clone();
    }

    /**
     * A key for one use, derived from the secret (HMAC-SHA256 of {@code purpose}), so that uses
     * never share one.
     */
    byte[] derive(String purpose) {
      try {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(bytes, "HmacSHA256"));
        return mac.doFinal(purpose.getBytes(StandardCharsets.UTF_8));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is not available", e);
      }
    }

    @Override
    public String toString() {
      return "SessionSecret[" + bytes.length + " bytes]";
    }
  }

  ServeOptions {
    publicUrls = List.copyOf(publicUrls);
  }

  /** The prompt folders served, or none when a store or a Git branch is. */
  List<Path> directories() {
    return served instanceof Served.Folders f ? f.directories() : List.of();
  }

  /** The prompt store served, or null. */
  @Nullable
  StoreUrl store() {
    return served instanceof Served.Store s ? s.url() : null;
  }

  /** The store's labels served (see {@link Served.Store#labels}); empty without a store. */
  List<String> labels() {
    return served.labels();
  }

  /** The Git branch served, or null. */
  @Nullable
  GitOptions git() {
    return served instanceof Served.Git g ? g.options() : null;
  }

  /**
   * With a store: how long its usage rows are kept ({@code --usage-retention}, 90 days unless
   * given).
   */
  Duration usageRetention() {
    return served instanceof Served.Store s ? s.usageRetention() : StoreUsage.DEFAULT_RETENTION;
  }

  /**
   * What to warn of before serving: a {@code --public-url} beyond this machine without
   * authentication.
   */
  List<String> warnings() {
    return PublicUrls.warnings(this);
  }

  /**
   * The server's language: {@code --locale}'s tag when given (one promptd does not speak is a usage
   * error), else the environment's ({@code LC_ALL}, {@code LC_MESSAGES}, {@code LANG}; English when
   * none names a language promptd speaks).
   */
  static Locale locale(@Nullable String tag, Map<String, String> environment) {
    if (tag == null) {
      return ServerText.environmentLocale(environment);
    }
    return ServerText.parse(tag).orElseThrow(() -> UsageException.of("value.locale", tag));
  }

  /**
   * The library options these imply: the defaults, with skills offered as prompts or not, the
   * budget of the files their prompts embed, and the server's language.
   */
  LibraryOptions library() {
    return LibraryOptions.builder()
        .skillPrompts(skillPrompts)
        .skillFilesBudget(skillFilesBudget)
        .locale(locale)
        .build();
  }

  static ServeOptions parse(List<String> args) {
    int pageSize = 500;
    int maxLineBytes = StdioTransport.DEFAULT_MAX_LINE_BYTES;
    boolean watch = true;
    boolean http = false;
    String host = "127.0.0.1";
    int port = 3000;
    String token = System.getenv(TOKEN_VARIABLE);
    int adminPort = -1;
    String adminHost = OpsOptions.NONE.adminHost();
    String accessLog = null;
    String issuer = System.getenv(ISSUER_VARIABLE);
    String audience = System.getenv(AUDIENCE_VARIABLE);
    String scopes = System.getenv(SCOPES_VARIABLE);
    boolean tokenGiven = false;
    List<URI> publicUrls = new ArrayList<>();
    List<String> trustedProxies = List.of();
    int connectionsPerAddress = ConnectionOptions.DEFAULT.maxConnectionsPerAddress();
    int streamsPerClient = ConnectionOptions.DEFAULT.maxStreamsPerClient();
    int headerTimeout = ConnectionOptions.DEFAULT.headerTimeoutSeconds();
    int maxConnections = ConnectionOptions.DEFAULT.maxConnections();
    int minBodyRate = ConnectionOptions.DEFAULT.minBodyRate();
    Path tlsCert = null;
    Path tlsKey = null;
    Path sessionSecretFile = null;
    int completionRate = McpServer.DEFAULT_COMPLETION_RATE;
    int sessionsPerCaller = HttpLimits.DEFAULTS.maxSessionsPerCaller();
    boolean sessionsPerCallerGiven = false;
    boolean elicit = true;
    boolean formFirst = true;
    FreeTextConfirmation confirm = FormOptions.DEFAULT.confirmFreeText();
    PromptFolding fold = PromptFolding.AUTO;
    boolean promptsAsTools = false;
    String localeTag = null;
    boolean skillPrompts = true;
    long skillFilesBudget = LibraryOptions.defaults().skillFilesBudget();
    boolean catalog = false;
    String catalogClientId = null;
    boolean manage = false;
    String manageScope = null;
    String manageAdmin = null;
    Served.Parsed source = new Served.Parsed();
    GitOptions.Parsed git = source.git;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--page-size" -> pageSize = intValue(args, ++i, arg, 1);
        case "--max-line-bytes" -> maxLineBytes = intValue(args, ++i, arg, 1024);
        case "--no-watch" -> watch = false;
        case "--stdio" -> http = false;
        case "--http" -> {
          http = true;
          // The referee and some tools say "--http PORT"; a number right after --http is the port.
          if (i + 1 < args.size() && args.get(i + 1).matches("\\d+")) {
            port = intValue(args, ++i, "--http", 0);
          }
        }
        case "--port" -> port = intValue(args, ++i, arg, 0);
        case "--host" -> host = text(args, ++i, arg);
        case "--token" -> {
          token = text(args, ++i, arg);
          tokenGiven = true;
        }
        case "--public-url" -> publicUrls.add(url(text(args, ++i, arg), arg));
        case "--trust-proxy" -> {
          // Bare: a proxy on this machine. An address list right after it says which proxies.
          boolean listed =
              i + 1 < args.size() && ConnectionOptions.looksLikeAddresses(args.get(i + 1));
          trustedProxies =
              listed ? ConnectionOptions.proxies(args.get(++i)) : ConnectionOptions.LOOPBACK_PROXY;
        }
        case "--max-connections-per-address" -> connectionsPerAddress = intValue(args, ++i, arg, 1);
        case "--max-streams-per-client" -> streamsPerClient = intValue(args, ++i, arg, 1);
        case "--header-timeout" -> headerTimeout = intValue(args, ++i, arg, 1);
        case "--max-connections" -> maxConnections = intValue(args, ++i, arg, 1);
        case "--min-body-rate" -> minBodyRate = intValue(args, ++i, arg, 1);
        case "--tls-cert" -> tlsCert = Path.of(text(args, ++i, arg));
        case "--tls-key" -> tlsKey = Path.of(text(args, ++i, arg));
        case "--admin-port" -> adminPort = intValue(args, ++i, arg, 0);
        case "--admin-host" -> adminHost = text(args, ++i, arg);
        case "--access-log" -> accessLog = text(args, ++i, arg);
        case "--oauth-issuer" -> issuer = text(args, ++i, arg);
        case "--oauth-audience" -> audience = text(args, ++i, arg);
        case "--oauth-scopes" -> scopes = text(args, ++i, arg);
        case "--session-secret" -> sessionSecretFile = Path.of(text(args, ++i, arg));
        case "--store" -> source.store = text(args, ++i, arg);
        case "--label" -> source.labels.add(text(args, ++i, arg));
        case "--manage" -> manage = true;
        case "--manage-scope" -> manageScope = text(args, ++i, arg);
        case "--manage-admin-scope" -> manageAdmin = text(args, ++i, arg);
        case "--usage-retention" -> source.usageRetention = Served.retention(text(args, ++i, arg));
        case "--completion-rate" -> completionRate = intValue(args, ++i, arg, 0);
        case "--max-sessions-per-caller" -> {
          sessionsPerCaller = intValue(args, ++i, arg, 1);
          sessionsPerCallerGiven = true;
        }
        case "--no-elicit" -> elicit = false;
        case "--no-form-first" -> formFirst = false;
        case "--confirm-free-text" -> confirm = FormOptions.confirmation(text(args, ++i, arg));
        case "--fold" -> fold = folding(text(args, ++i, arg));
        case "--prompts-as-tools" -> promptsAsTools = true;
        case "--locale" -> localeTag = text(args, ++i, arg);
        case "--no-skill-prompts" -> skillPrompts = false;
        case "--skill-files-budget" -> skillFilesBudget = size(args, ++i, arg);
        case "--catalog" -> catalog = true;
        case "--catalog-client-id" -> catalogClientId = blankToNull(text(args, ++i, arg));
        case "--git" -> git.remote = text(args, ++i, arg);
        case "--git-poll" -> git.poll = GitOptions.duration(text(args, ++i, arg));
        case "--git-webhook-secret-file" -> git.secretFile = Path.of(text(args, ++i, arg));
        case "--git-ssh-key" -> git.sshKey = Path.of(text(args, ++i, arg));
        case "--git-known-hosts" -> git.knownHosts = Path.of(text(args, ++i, arg));
        default -> {
          if (arg.startsWith("-")) {
            throw UsageException.of("option.unknown", arg);
          }
          source.dirs.add(arg);
        }
      }
    }
    if (port > 65535) {
      throw UsageException.of("value.port", "--port");
    }
    if (token != null && token.isBlank()) {
      token = null;
    }
    String fromEnvironment = System.getenv(PUBLIC_URL_VARIABLE);
    if (publicUrls.isEmpty() && fromEnvironment != null) {
      for (String u : fromEnvironment.split(",", -1)) {
        if (!u.isBlank()) {
          publicUrls.add(url(u.trim(), PUBLIC_URL_VARIABLE));
        }
      }
    }
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new UsageException("--tls-cert and --tls-key go together");
    }
    OpsOptions ops = new OpsOptions(adminPort, adminHost, accessLog);
    if (ops.any() && !http) {
      throw new UsageException("--admin-port and --access-log need --http");
    }
    if (adminPort > 65535) {
      throw UsageException.of("value.port", "--admin-port");
    }
    if (adminPort > 0 && adminPort == port) {
      throw new UsageException("--admin-port must differ from the MCP port");
    }
    OAuthSettings oauth = oauth(blankToNull(issuer), blankToNull(audience), blankToNull(scopes));
    if (oauth != null && token != null) {
      if (!tokenGiven) {
        token = null; // the command line's OAuth wins over a token left in the environment
      } else {
        throw new UsageException("--token and --oauth-issuer exclude each other: use one");
      }
    }
    if (catalog && !http) {
      throw new UsageException("--catalog needs --http");
    }
    String catalogSetting = System.getenv(CATALOG_VARIABLE); // ignored by a stdio server
    catalog |= http
        && catalogSetting != null
        && (catalogSetting.strip().equals("1") || catalogSetting.strip().equalsIgnoreCase("true"));
    if (catalogClientId != null && !catalog) {
      throw new UsageException("--catalog-client-id needs --catalog");
    }
    if (catalogClientId != null && oauth == null) {
      throw new UsageException("--catalog-client-id needs --oauth-issuer: the catalog logs people"
          + " in at the identity provider promptd takes tokens from");
    }
    SessionSecret sessionSecret =
        sessionSecret(sessionSecretFile, System.getenv(SESSION_SECRET_VARIABLE));
    if (sessionsPerCallerGiven && !http) {
      throw new UsageException("--max-sessions-per-caller needs --http");
    }
    if (sessionSecret != null && !http) {
      throw new UsageException("--session-secret needs --http");
    }
    boolean store = source.name(http, System.getenv());
    if (manage) {
      ManageApi.checkOptions(store, http, oauth != null, manageScope, manageAdmin);
    } else if (manageScope != null || manageAdmin != null) {
      throw new UsageException("--manage-scope and --manage-admin-scope go with --manage");
    }
    Served served = source.build();
    return new ServeOptions(
        served,
        pageSize,
        maxLineBytes,
        watch,
        http,
        host,
        port,
        token,
        publicUrls,
        new ConnectionOptions(
            trustedProxies,
            connectionsPerAddress,
            streamsPerClient,
            headerTimeout,
            maxConnections,
            minBodyRate),
        tlsCert,
        tlsKey,
        ops,
        oauth,
        sessionSecret,
        completionRate,
        sessionsPerCaller,
        new FormOptions(elicit, formFirst, confirm),
        fold,
        promptsAsTools,
        skillPrompts,
        skillFilesBudget,
        catalog,
        catalogClientId,
        manage && manageScope != null
            ? new ManageApi.Access(manageScope, manageAdmin, Set.copyOf(source.labels))
            : null,
        locale(localeTag, System.getenv()));
  }

  /** Reads {@code --fold}'s value: {@code auto}, {@code always} or {@code never}. */
  static PromptFolding folding(String value) {
    return PromptFolding.of(value).orElseThrow(() -> UsageException.of("value.fold", value));
  }

  /**
   * The session secret: the content of {@code file} (surrounding white space removed), else the
   * environment variable's value, else null. The secret itself never appears in an error.
   */
  static @Nullable SessionSecret sessionSecret(
      @Nullable Path file, @Nullable String fromEnvironment) {
    return secret(file, fromEnvironment, "--session-secret", SESSION_SECRET_VARIABLE);
  }

  /**
   * A secret of at least 16 bytes: the content of {@code file} (surrounding white space removed),
   * else the environment variable's value, else null. The secret itself never appears in an error.
   *
   * @param option the option that names the file, for errors
   * @param variable the environment variable's name, for errors
   */
  static @Nullable SessionSecret secret(
      @Nullable Path file, @Nullable String fromEnvironment, String option, String variable) {
    String text;
    String where;
    if (file != null) {
      try {
        text = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException | UncheckedIOException e) {
        throw new UsageException(
            option + ": cannot read " + file + " (" + e.getClass().getSimpleName() + ")");
      }
      where = "the file " + file;
    } else if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      text = fromEnvironment;
      where = variable;
    } else {
      return null;
    }
    byte[] bytes = text.strip().getBytes(StandardCharsets.UTF_8);
    if (bytes.length < 16) {
      throw new UsageException(option + ": the secret in " + where + " has " + bytes.length
          + " bytes; at least 16 are needed (e.g. the output of 'openssl rand -base64 32')");
    }
    return new SessionSecret(bytes);
  }

  private static @Nullable String blankToNull(@Nullable String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }

  /** The OAuth settings the options describe, or null without an issuer. */
  private static @Nullable OAuthSettings oauth(
      @Nullable String issuer, @Nullable String audience, @Nullable String scopes) {
    if (issuer == null) {
      if (audience != null || scopes != null) {
        throw new UsageException("--oauth-audience and --oauth-scopes need --oauth-issuer");
      }
      return null;
    }
    try {
      OAuthSettings settings = OAuthSettings.issuer(uri(issuer, "--oauth-issuer"));
      if (audience != null) {
        settings = settings.withAudience(uri(audience, "--oauth-audience"));
      }
      if (scopes != null) {
        settings = settings.withScopes(Arrays.stream(scopes.split(",", -1))
            .map(String::strip)
            .filter(x -> !x.isEmpty())
            .toList());
      }
      return settings;
    } catch (IllegalArgumentException e) {
      throw new UsageException(String.valueOf(e.getMessage()));
    }
  }

  private static URI uri(String text, String option) {
    try {
      return new URI(text);
    } catch (URISyntaxException e) {
      throw UsageException.of("value.url", option, text);
    }
  }

  /** The folders named on the command line; each must exist (see {@link Served#directories}). */
  static List<Path> directories(List<String> args) {
    return Served.directories(args);
  }

  /** An absolute http(s) URL with a host. */
  private static URI url(String value, String option) {
    try {
      URI u = new URI(value);
      String scheme = u.getScheme();
      if (u.getHost() != null
          && scheme != null
          && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
        return u;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw new UsageException(
        option + " needs an http or https URL such as https://prompts.example.com/mcp, not '"
            + value + "'");
  }

  private static String text(List<String> args, int index, String option) {
    if (index >= args.size()) {
      throw UsageException.of("value.missing", option);
    }
    return args.get(index);
  }

  /**
   * A size in bytes: a number, or one followed by {@code k} (KiB) or {@code m} (MiB), either case.
   */
  static long size(List<String> args, int index, String option) {
    String value = text(args, index, option);
    String digits = value;
    int shift = 0;
    if (!value.isEmpty()) {
      char unit = Character.toLowerCase(value.charAt(value.length() - 1));
      shift = unit == 'k' ? 10 : unit == 'm' ? 20 : 0;
      if (shift > 0) {
        digits = value.substring(0, value.length() - 1);
      }
    }
    if (!digits.matches("[0-9]{1,9}")) {
      throw new UsageException(option
          + " needs a size in bytes such as 65536, 64k or 1m (0: none), not '" + value + "'");
    }
    return Long.parseLong(digits) << shift;
  }

  private static int intValue(List<String> args, int index, String option, int min) {
    String value = text(args, index, option);
    try {
      int n = Integer.parseInt(value);
      if (n < min) {
        throw UsageException.of("value.at-least", option, min);
      }
      return n;
    } catch (NumberFormatException e) {
      throw UsageException.of("value.number", option, value);
    }
  }
}
