package io.promptd.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Who publishes when {@code --author} is not given: the Git user ({@code git config user.name},
 * asked in the folder published, so that a repository's own setting counts), else {@code $USER},
 * else {@code unknown}. Git is asked with a time limit and any failure of it (not installed, no
 * user set, too slow) falls through to {@code $USER}.
 */
final class DefaultAuthor {
  /**
   * How long Git may take: it normally answers in milliseconds, and a publish must not hang on it.
   */
  static final Duration GIT_TIMEOUT = Duration.ofSeconds(3);

  private DefaultAuthor() {}

  /**
   * The default author.
   *
   * @param dir where Git is asked; null for the current folder
   * @param env the environment: Git runs with exactly it, and {@code USER} is read from it
   */
  static String of(@Nullable Path dir, Map<String, String> env) {
    String git = gitUser(dir, env);
    if (git != null) {
      return git;
    }
    String user = env.get("USER");
    return user == null || user.isBlank() ? "unknown" : user.strip();
  }

  private static @Nullable String gitUser(@Nullable Path dir, Map<String, String> env) {
    ProcessBuilder builder = new ProcessBuilder("git", "config", "user.name")
        .redirectInput(ProcessBuilder.Redirect.PIPE)
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    if (dir != null) {
      builder.directory(dir.toFile());
    }
    builder.environment().clear();
    builder.environment().putAll(env);
    Process git;
    try {
      git = builder.start();
    } catch (IOException e) {
      return null; // no git here
    }
    try {
      git.getOutputStream().close();
      // The answer is one short line, which the pipe holds while git exits: read it afterwards,
      // so that a git that hangs costs the time limit and not a blocked read.
      if (!git.waitFor(GIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        return null;
      }
      if (git.exitValue() != 0) {
        return null;
      }
      try (InputStream out = git.getInputStream()) {
        String name = new String(out.readNBytes(4096), StandardCharsets.UTF_8).strip();
        return name.isEmpty() || name.contains("\n") ? null : name;
      }
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } finally {
      git.destroyForcibly();
    }
  }
}
