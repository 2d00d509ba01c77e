package io.promptd.cli;

import io.promptd.git.GitCommit;
import io.promptd.git.GitLibrary;
import io.promptd.git.GitRemote;
import io.promptd.store.FolderFiles;
import io.promptd.store.PromptStore;
import io.promptd.store.Published;
import io.promptd.store.StoreException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code promptd publish --from-git URL[#BRANCH]}: the branch's head commit, fetched into its clone
 * under {@code $XDG_CACHE_HOME/promptd/git}, published as a folder is (its files written to a
 * temporary folder, checked and read by the same rules); each version records the author as
 * {@code NAME (git COMMIT)}, NAME being {@code --author} or the commit's author. Only this class
 * names the Git module, so JGit is loaded only for a publish from Git.
 */
final class GitPublish {
  private GitPublish() {}

  /**
   * The remote {@code source} names, with its SSH key and known-hosts file; a usage error, starting
   * with {@code option}, when it names none or a key is no readable file.
   */
  static GitRemote remote(GitSource source, String option) {
    try {
      return GitRemote.parse(source.spec(), System.getenv(), source.sshKey(), source.knownHosts());
    } catch (IllegalArgumentException e) {
      throw new UsageException(option + ": " + e.getMessage());
    }
  }

  static int run(
      PromptStore store,
      GitSource source,
      String author,
      boolean allowErrors,
      boolean dryRun,
      PrintStream out)
      throws StoreException, IOException {
    GitRemote remote = remote(source, "--from-git");
    GitCommit head = GitLibrary.readHead(remote, GitRemote.defaultCacheRoot(System.getenv()));
    String what = remote + " at commit " + head.id();
    Path dir = Files.createTempDirectory("promptd-git-publish");
    try {
      for (Map.Entry<String, byte[]> f : head.files().entrySet()) {
        Path p = dir.resolve(f.getKey());
        Files.createDirectories(p.getParent());
        Files.write(p, f.getValue());
      }
      if (dryRun) {
        return DryRun.report(FolderFiles.preview(store, dir, allowErrors), what, out);
      }
      String who = (author.isBlank() ? head.author() : author) + " (git " + head.id() + ")";
      Published p = FolderFiles.publish(store, dir, who, allowErrors);
      return StoreCommand.report(p, "published " + what, out);
    } finally {
      try (Stream<Path> walk = Files.walk(dir)) {
        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}
