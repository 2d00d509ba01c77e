package io.promptd.cli;

import io.promptd.git.GitLibrary;
import io.promptd.git.GitRemote;
import io.promptd.git.GitWebhook;
import io.promptd.library.Library;
import io.promptd.mcp.http.HttpTransportBuilder;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd serve --git URL[#BRANCH]}: the branch's head served from a clone under
 * {@code $XDG_CACHE_HOME/promptd/git}, followed by polling and, over HTTP with a secret, by
 * {@code POST /hooks/git}. Only this class names the Git module, so JGit is loaded only when a Git
 * source is served.
 */
final class GitServe implements Serving {
  private final GitLibrary serving;
  private final @Nullable Consumer<HttpTransportBuilder> hook;
  private final ServeOptions.@Nullable SessionSecret sessionSecret;

  private GitServe(
      GitLibrary serving,
      @Nullable Consumer<HttpTransportBuilder> hook,
      ServeOptions.@Nullable SessionSecret sessionSecret) {
    this.serving = serving;
    this.hook = hook;
    this.sessionSecret = sessionSecret;
  }

  /**
   * Starts following the branch: its clone's commit (from an earlier run) served at once, the first
   * fetch in the background.
   *
   * @throws UsageException when the remote does not parse
   */
  static Serving open(GitOptions git, ServeOptions options, PrintStream err) throws IOException {
    GitRemote remote = GitPublish.remote(git.source(), "--git");
    GitLibrary serving = GitLibrary.start(
        remote, GitRemote.defaultCacheRoot(System.getenv()), git.poll(), options.library());
    try {
      return new GitServe(
          serving, hook(git.webhookSecret(), serving, err), options.sessionSecret());
    } catch (RuntimeException | Error e) {
      serving.close();
      throw e;
    }
  }

  @Override
  public Library library() {
    return serving.library();
  }

  @Override
  public boolean loaded() {
    return serving.loaded();
  }

  @Override
  public @Nullable String feedProblem() {
    return serving.feedProblem();
  }

  @Override
  public CompletionStage<?> firstLoad() {
    return serving.firstLoad();
  }

  @Override
  public boolean awaitFirst(Duration timeout) throws InterruptedException {
    return serving.awaitLoaded(timeout);
  }

  @Override
  public String notLoaded() {
    return "promptd: " + serving.remote()
        + " is not fetched yet; serving nothing (not ready) until it is";
  }

  @Override
  public void mount(HttpTransportBuilder builder) {
    if (hook != null) {
      hook.accept(builder);
    }
  }

  @Override
  public ServeOptions.@Nullable SessionSecret sessionSecret() {
    return sessionSecret;
  }

  @Override
  public void close() {
    serving.close();
  }

  /** The webhook's mount, or null when no secret is set (the webhook is off). */
  private static @Nullable Consumer<HttpTransportBuilder> hook(
      ServeOptions.@Nullable SessionSecret secret, GitLibrary serving, PrintStream err) {
    if (secret == null) {
      return null;
    }
    GitWebhook webhook = new GitWebhook(secret.bytes(), serving::fetchNow);
    err.println("promptd: Git webhook at POST " + GitOptions.WEBHOOK_PATH
        + " (deliveries signed with the secret: X-Hub-Signature-256)");
    return builder -> builder.mount(GitOptions.WEBHOOK_PATH, (request, response) -> {
      if (!request.method().equals("POST")) {
        response.header("Allow", "POST").refuse(405, "the Git webhook takes POST");
        return;
      }
      String event = request.header("X-GitHub-Event");
      GitWebhook.Answer answer = webhook.handle(
          request.header("X-Hub-Signature-256"),
          event != null ? event : request.header("X-Gitea-Event"),
          request.body(GitWebhook.MAX_BODY_BYTES));
      if (answer.status() == 202) {
        response.send(
            202,
            "text/plain; charset=utf-8",
            (answer.message() + "\n").getBytes(StandardCharsets.UTF_8));
      } else {
        response.refuse(answer.status(), answer.message());
      }
    });
  }
}
