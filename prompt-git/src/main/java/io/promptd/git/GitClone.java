package io.promptd.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.jspecify.annotations.Nullable;

/**
 * The local clone of a {@link GitRemote}: a bare repository (objects and refs, no working tree)
 * into which the branch is fetched, forced, so that its tracking ref is always the remote branch's
 * head, a force-push included.
 */
final class GitClone implements AutoCloseable {
  /** How long one network operation of a fetch may take. */
  private static final int TIMEOUT_SECONDS = 30;

  private final GitRemote remote;
  private final Path dir;
  private final Repository repo;
  private @Nullable SshConnector ssh;

  private GitClone(GitRemote remote, Path dir, Repository repo) {
    this.remote = remote;
    this.dir = dir;
    this.repo = repo;
  }

  /** Opens the clone in {@code dir}, creating an empty bare repository there when there is none. */
  static GitClone open(GitRemote remote, Path dir) throws IOException {
    Files.createDirectories(dir);
    Repository repo;
    try {
      repo =
          new FileRepositoryBuilder().setGitDir(dir.toFile()).setMustExist(true).build();
    } catch (RepositoryNotFoundException e) {
      repo = new FileRepositoryBuilder().setGitDir(dir.toFile()).setBare().build();
      repo.create(true);
    }
    return new GitClone(remote, dir, repo);
  }

  Repository repository() {
    return repo;
  }

  Path dir() {
    return dir;
  }

  /** The branch's head as last fetched, or null before the first fetch. */
  @Nullable
  ObjectId head() throws IOException {
    Ref ref = repo.exactRef(remote.trackingRef());
    return ref == null ? null : ref.getObjectId();
  }

  /**
   * Fetches the branch from the remote.
   *
   * @return the branch's head now
   * @throws IOException when the remote cannot be reached or read, or has no such branch; the
   *     message holds no secret
   */
  ObjectId fetch() throws IOException {
    try (Git git = Git.wrap(repo)) {
      var fetch = git.fetch()
          .setRemote(remote.url())
          .setRefSpecs(new RefSpec(remote.refSpec()))
          .setTagOpt(TagOpt.NO_TAGS)
          .setTimeout(TIMEOUT_SECONDS);
      if (remote.sendsToken()) {
        fetch.setCredentialsProvider(
            new UsernamePasswordCredentialsProvider(remote.username(), remote.token()));
      }
      GitSsh settings = remote.ssh();
      if (settings != null) {
        if (ssh == null) {
          ssh = new SshConnector(settings);
        }
        ssh.reset();
        fetch.setTransportConfigCallback(ssh);
      }
      fetch.call();
    } catch (GitAPIException | RuntimeException e) {
      throw new IOException(reason(e), e);
    }
    ObjectId head = head();
    if (head == null) {
      throw new IOException(
          "no branch " + (remote.branch() == null ? "HEAD" : remote.branch()) + " at " + remote);
    }
    return head;
  }

  /** The messages of {@code e} and its causes, without secrets. */
  String reason(Throwable e) {
    StringBuilder out = new StringBuilder();
    for (Throwable t = e; t != null && out.length() < 500; t = t.getCause()) {
      String m = t.getMessage() == null ? null : remote.redacted(t.getMessage());
      if (m != null && !m.isBlank() && out.indexOf(m) < 0) {
        if (!out.isEmpty()) {
          out.append(": ");
        }
        out.append(m.strip());
      }
    }
    GitSsh settings = remote.ssh();
    String refused = ssh == null ? null : ssh.refusal();
    // An IOException of fetch() says both already when its reason is asked for again.
    if (refused != null && out.indexOf(refused) < 0) {
      out.insert(0, refused + ": ");
    } else if (refused == null
        && settings != null
        && !out.isEmpty()
        && out.indexOf("(SSH key ") < 0) {
      Path key = settings.key();
      out.append(" (SSH key ")
          .append(key == null ? "the default ones in ~/.ssh" : key.toString())
          .append(")");
    }
    return remote.redacted(out.isEmpty() ? e.getClass().getSimpleName() : out.toString());
  }

  @Override
  public void close() {
    if (ssh != null) {
      ssh.close();
    }
    repo.close();
  }
}
