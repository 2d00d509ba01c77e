package io.promptd.cli;

import io.promptd.git.GitLibrary;
import io.promptd.git.GitRemote;
import io.promptd.git.GitWebhook;
import io.promptd.mcp.http.HttpTransportBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd serve --git URL[#BRANCH]}: the branch's head served from a clone under {@code
 * $XDG_CACHE_HOME/promptd/git}, followed by polling and, over HTTP with a secret, by {@code POST /hooks/git}. Only
 * this class names the Git module, so JGit is loaded only when a Git source is served.
 */
final class GitServe {
  private GitServe() {}

  static int run(
      GitOptions git, ServeOptions options, PrintStream err, InputStream in, OutputStream stdout) {
    GitRemote remote;
    try {
      remote = GitPublish.remote(git.source(), "--git");
    } catch (UsageException e) {
      err.println("promptd: " + e.getMessage());
      return Main.USAGE;
    }
    try (GitLibrary serving = GitLibrary.start(
        remote, GitRemote.defaultCacheRoot(System.getenv()), git.poll(), options.library())) {
      if (!options.http() && !serving.awaitLoaded(Serve.STORE_START_WAIT)) {
        err.println(notLoaded(remote));
      }
      Serve.Loading loading =
          options.http() ? new Serve.Loading(serving.firstLoad(), notLoaded(remote)) : null;
      return Serve.serve(
          new Serve.Served(
              serving.library(),
              serving::loaded,
              serving::feedProblem,
              null,
              java.util.List.of(),
              hook(git.webhookSecret(), serving, err),
              null),
          null,
          options.sessionSecret(),
          loading,
          options,
          err,
          in,
          stdout);
    } catch (IOException e) {
      err.println("promptd: " + e.getMessage());
      return Main.FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Main.FAILED;
    }
  }

  private static String notLoaded(GitRemote remote) {
    return "promptd: " + remote + " is not fetched yet; serving nothing (not ready) until it is";
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
            (answer.message() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      } else {
        response.refuse(answer.status(), answer.message());
      }
    });
  }
}
