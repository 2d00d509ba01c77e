package io.promptd.cli;

import io.promptd.catalog.WebCatalog;
import io.promptd.library.Library;
import io.promptd.mcp.http.HttpLimits;
import io.promptd.mcp.http.HttpTransport;
import io.promptd.mcp.http.HttpTransportBuilder;
import io.promptd.mcp.http.OAuthSettings;
import io.promptd.mcp.http.SessionStore;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.stdio.StdioTransport;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** {@code promptd serve DIR…}: the prompt library over stdio or Streamable HTTP. */
final class Serve {
  /** The MCP endpoint's path, which the web catalog's page calls too. */
  private static final String MCP_PATH = "/mcp";

  private static final String JETTY_REFERENCES_PER_CACHE_LINE =
      "org.eclipse.jetty.util.referencesPerCacheLine";
  /** How long a store's start waits for its first load before serving without it (not ready). */
  static final Duration STORE_START_WAIT = Duration.ofSeconds(5);

  private Serve() {}

  static int run(ServeOptions options, PrintStream err) {
    // The transport owns stdout from here on; a stray System.out.println must not corrupt the
    // protocol.
    OutputStream stdout = new FileOutputStream(FileDescriptor.out);
    System.setOut(err);
    // A person at the terminal, not a client: told what is going on when serving starts.
    InputStream in = !options.http() && TerminalForm.stdinIsATerminal()
        ? TerminalInput.watch(System.in, err, options.directories())
        : System.in;
    return run(options, err, in, stdout);
  }

  /**
   * Serves with {@code in} and {@code out} as the stdio transport's streams (the start-up cache's
   * training run).
   */
  static int run(ServeOptions options, PrintStream err, InputStream in, OutputStream stdout) {
    return serve(options.served(), options, err, in, stdout);
  }

  /**
   * Serves {@code served}, whichever source it is: open, then (a store's or Git's library loading
   * in the background) ready once its first load is done, which a start waits for up to
   * {@link #STORE_START_WAIT} (over stdio before serving; over HTTP with the port open, holding the
   * requests that come sooner); a source lost later leaves the last snapshot served.
   */
  static int serve(
      Served served, ServeOptions options, PrintStream err, InputStream in, OutputStream stdout) {
    Serving serving;
    try {
      serving = served.open(options, err);
    } catch (UsageException e) {
      err.println("promptd: " + e.message(CliText.of(System.getenv(), err.charset())));
      return Main.USAGE;
    } catch (IOException e) {
      err.println("promptd: " + e.getMessage());
      return Main.FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.FAILED;
    }
    try (serving) {
      if (!options.http() && !serving.awaitFirst(STORE_START_WAIT)) {
        err.println(serving.notLoaded());
      }
      // Over HTTP the port opens at once and requests that come before the first load wait for it
      // (as long as the stdio start would), instead of the port opening only after the load.
      CompletionStage<?> firstLoad = serving.firstLoad();
      Loading loading =
          options.http() && firstLoad != null ? new Loading(firstLoad, serving.notLoaded()) : null;
      return serve(served, serving, loading, options, err, in, stdout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.FAILED;
    }
  }

  /**
   * A library still loading in the background when the HTTP port opens: requests wait for it, for
   * at most {@link #STORE_START_WAIT}.
   *
   * @param done completes with the first load
   * @param late what to print when the wait ends before the load
   */
  record Loading(CompletionStage<?> done, String late) {}

  /**
   * Serves {@code serving}, open, until the process is told to stop (over HTTP) or stdin ends
   * (stdio).
   */
  private static int serve(
      Served served,
      Serving serving,
      @Nullable Loading loading,
      ServeOptions options,
      PrintStream err,
      InputStream in,
      OutputStream stdout) {
    Library library = serving.library();
    try {
      // The library logged its load's diagnostics already (StderrLogs prints them): printing them
      // here too doubled them.
      if (options.watch() && served.watched()) {
        library.watch();
      }
      PromptUsage usage = new PromptUsage(library, firstLabel(options), serving.usage());
      try (McpServer server = builder(library, serving.sessionSecret(), options)
              .onPromptUse(usage)
              .build();
          ClientLog clientLog = ClientLog.install(server)) {
        if (options.http()) {
          serveHttp(server, serving, usage, loading, options, err);
        } else {
          err.println("promptd: serving " + library.catalog().size() + " prompt(s) over stdio");
          StdioTransport.create(server, in, stdout, options.maxLineBytes()).run();
        }
      }
      return Main.OK;
    } catch (IOException e) {
      err.println("promptd: " + e.getMessage());
      return Main.FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.FAILED;
    }
  }

  /**
   * How the catalog logs people in: as the public client {@code --catalog-client-id} at the issuer
   * promptd takes tokens from; null without one (the page then asks for a token to paste).
   */
  private static WebCatalog.@Nullable Login login(ServeOptions options) {
    String clientId = options.catalogClientId();
    OAuthSettings oauth = options.oauth();
    return clientId == null || oauth == null
        ? null
        : new WebCatalog.Login(oauth.issuer(), clientId);
  }

  /** The label {@code /mcp} (or stdio) serves, or null when no label is served. */
  private static @Nullable String firstLabel(ServeOptions options) {
    return options.labels().isEmpty() ? null : options.labels().getFirst();
  }

  /** An MCP server of {@code library} as the options say; every label's server is built alike. */
  private static McpServer.Builder builder(
      Library library, ServeOptions.@Nullable SessionSecret sessionSecret, ServeOptions options) {
    McpServer.Builder builder = McpServer.builder()
        .serverInfo(new Implementation("promptd", "promptd", McpServer.libraryVersion()))
        .prompts(library.catalog())
        .resources(library)
        .skills(library.skillProvider())
        .pageSize(options.pageSize())
        .completionRateLimit(options.completionRate(), Math.max(1, 2 * options.completionRate()))
        .elicitation(options.forms().elicit())
        .formFirst(options.forms().formFirst())
        .freeTextConfirmation(options.forms().confirmFreeText())
        .folding(options.fold())
        .locale(options.locale())
        .promptsAsTools(options.promptsAsTools())
        .standingLog(() -> ClientLog.standing(library));
    if (sessionSecret != null) {
      builder.cursorSecret(
          sessionSecret.derive("promptd list cursors")); // replicas accept each other's cursors
      // and each other's retries of prompts/get after an InputRequiredResult
      builder.requestStateSecret(sessionSecret.derive("promptd request state"));
    }
    return builder;
  }

  /**
   * Serves until the process is told to stop (SIGINT, SIGTERM); in-flight requests finish first.
   */
  private static void serveHttp(
      McpServer server,
      Serving served,
      PromptUsage usage,
      @Nullable Loading loading,
      ServeOptions options,
      PrintStream err)
      throws IOException, InterruptedException {
    SessionStore sessionStore = served.sessionStore();
    ServeOptions.SessionSecret sessionSecret = served.sessionSecret();
    // Without this hint Jetty asks the platform MBean server whether oops are compressed, which
    // loads all of JMX (a thousand classes, a third of the HTTP start-up time) to size a padding.
    // 16 is right for 64-byte cache lines and compressed oops, the JVM's default under 32 GB of
    // heap.
    if (System.getProperty(JETTY_REFERENCES_PER_CACHE_LINE) == null) {
      System.setProperty(JETTY_REFERENCES_PER_CACHE_LINE, "16");
    }
    Operations ops = Operations.create(options.ops(), server, served.library(), usage);
    HttpTransportBuilder builder = HttpTransport.builder()
        .server(server)
        .host(options.host())
        .port(options.port())
        .path(MCP_PATH)
        .bearerToken(options.token())
        .oauth(options.oauth())
        .trustedProxies(options.connections().trustedProxies())
        .limits(HttpLimits.DEFAULTS
            .withMaxSessionsPerCaller(options.sessionsPerCaller())
            .withMaxConnectionsPerAddress(options.connections().maxConnectionsPerAddress())
            .withMaxStreamsPerClient(options.connections().maxStreamsPerClient())
            .withRequestHeaderTimeout(
                Duration.ofSeconds(options.connections().headerTimeoutSeconds()))
            .withMaxConnections(options.connections().maxConnections())
            .withMinRequestDataRate(options.connections().minBodyRate()))
        .readinessCheck("library loaded", served::loaded)
        // A feed that stopped or keeps failing serves an old library for good: its reason is in the
        // log.
        .readinessCheck("library feed current", () -> served.feedProblem() == null);
    // Each further label: a full MCP endpoint of its own server, sessions included (see
    // StoreViews).
    List<McpServer> further = new ArrayList<>();
    for (StoreViews.View v : served.further()) {
      // Each label's uses are counted under its own label (in the store; /metrics counts /mcp's).
      McpServer s = builder(v.library().library(), sessionSecret, options)
          .onPromptUse(new PromptUsage(v.library().library(), v.label(), served.usage()))
          .build();
      further.add(s);
      builder.endpoint(StoreViews.path(String.valueOf(v.label())), s, v.library()::version);
    }
    if (options.catalog()) {
      // A page per label: / for /mcp, /labels/B/ for /labels/B/mcp. Without authentication or a
      // public URL, only visitors on this machine get them.
      List<WebCatalog.Page> pages = new ArrayList<>();
      pages.add(new WebCatalog.Page("/", MCP_PATH, firstLabel(options)));
      for (StoreViews.View v : served.further()) {
        String label = String.valueOf(v.label());
        pages.add(new WebCatalog.Page(catalogPath(label), StoreViews.path(label), label));
      }
      // Its words follow each visitor's Accept-Language, else the server's --locale.
      // Its "Add to a client" links: the public URL, else the address the visitor used; the token's
      // variable, never the token.
      WebCatalog.Install install = new WebCatalog.Install(
          options.publicUrls().isEmpty() ? null : options.publicUrls().getFirst(),
          options.tlsCert() != null,
          options.token() != null ? ServeOptions.TOKEN_VARIABLE : null);
      WebCatalog.mountOn(
          builder,
          pages,
          options.manage() != null ? ManageApi.BASE : null,
          options.token() != null
              || options.oauth() != null
              || !options.publicUrls().isEmpty(),
          install,
          options.locale(),
          login(options));
    }
    served.mount(builder);
    if (loading != null) {
      builder.holdRequestsUntil(loading.done(), STORE_START_WAIT);
    }
    options.publicUrls().forEach(builder::publicUrl);
    LongSupplier catalogVersion = served.catalogVersion();
    if (catalogVersion != null) {
      builder.catalogVersion(catalogVersion);
    }
    if (sessionStore != null) {
      builder.sessionStore(sessionStore);
    }
    if (sessionSecret != null) {
      builder.sessionSecret(sessionSecret.derive(
          "promptd legacy sessions")); // replicas with the same secret serve each other's sessions
    }
    Path cert = options.tlsCert();
    Path key = options.tlsKey();
    if (cert != null && key != null) {
      builder.tls(cert, key);
    }
    ops.configure(builder);
    options.warnings().forEach(w -> err.println("promptd: warning: " + w));
    HttpTransport http;
    try {
      http = builder.build().start();
      ops.start(http);
    } catch (IllegalStateException | IllegalArgumentException e) {
      ops.close();
      further.forEach(McpServer::close);
      String why = String.valueOf(e.getMessage());
      throw new IOException("refusing to start: " + why
          + (why.contains("without authentication")
              ? " (--token, PROMPTD_TOKEN or --oauth-issuer)"
              : ""));
    } catch (UncheckedIOException e) {
      ops.close();
      further.forEach(McpServer::close);
      throw e.getCause();
    } catch (IOException | RuntimeException e) {
      ops.close();
      further.forEach(McpServer::close);
      throw e;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(
            () -> {
              http.close();
              ops.close();
              server.close();
              further.forEach(McpServer::close);
              stopped.countDown();
            },
            "promptd-shutdown"));
    if (loading != null) {
      try {
        loading
            .done()
            .toCompletableFuture()
            .get(STORE_START_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        err.println(loading.late());
      }
    }
    URI admin = ops.adminUri();
    if (admin != null) {
      err.println("promptd: admin port on " + admin + " (/metrics, /healthz, /readyz)");
    }
    List<URI> reachable = http.reachableUris();
    String at = reachable.equals(List.of(http.uri()))
        ? http.uri().toString()
        : reachable.stream().map(URI::toString).collect(Collectors.joining(", "))
            + (http.publicUris().isEmpty()
                ? ""
                : " (listening on " + options.host() + ":" + http.port() + ")");
    err.println("promptd: serving " + server.prompts().size() + " prompt(s) on " + at
        + (options.token() != null ? " (bearer token required)" : "")
        + oauthNote(options.oauth(), http));
    if (options.oauth() == null) {
      String scopes = ScopeNote.serving(server.prompts(), options.token() != null);
      if (scopes != null) {
        err.println(scopes);
      }
    }
    for (StoreViews.View v : served.further()) {
      err.println("promptd: serving label " + v.label() + " ("
          + v.library().library().catalog().size() + " prompt(s)) on "
          + http.uri().resolve(StoreViews.path(String.valueOf(v.label()))));
    }
    if (options.catalog()) {
      URI site = reachable.isEmpty() ? http.uri() : reachable.getFirst();
      err.println("promptd: web catalog at " + site.resolve("/"));
      for (StoreViews.View v : served.further()) {
        err.println("promptd: web catalog of label " + v.label() + " at "
            + site.resolve(catalogPath(String.valueOf(v.label()))));
      }
    }
    stopped.await();
  }

  /** Where the web catalog of a further label is: {@code /labels/NAME/}, beside its endpoint. */
  private static String catalogPath(String label) {
    String endpoint = StoreViews.path(label);
    return endpoint.substring(0, endpoint.lastIndexOf('/') + 1);
  }

  /** What the start-up line says about OAuth. */
  private static String oauthNote(@Nullable OAuthSettings oauth, HttpTransport http) {
    return oauth == null
        ? ""
        : " (OAuth: access tokens from " + oauth.issuer() + " required"
            + (http.authReady() ? "" : "; fetching its keys") + ")";
  }
}
