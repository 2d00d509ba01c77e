package io.promptd.cli;

import io.promptd.store.StoreUrl;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What {@code promptd serve} serves, as its options name it: folders, a prompt store, or a Git branch. Each kind opens
 * into the {@link Serving} that {@link Serve} serves, the same way for all three.
 */
sealed interface Served {
  /**
   * Folders of prompt files, watched for changes unless {@code --no-watch}.
   *
   * @param directories the folders, each absolute and existing
   */
  record Folders(List<Path> directories) implements Served {
    public Folders {
      directories = List.copyOf(directories);
    }

    @Override
    public Serving open(ServeOptions options, PrintStream err) throws IOException {
      return FolderServing.open(this, options, err);
    }
  }

  /**
   * The prompt store ({@code --store}, or {@code PROMPTD_STORE} when no source is named).
   *
   * @param url the store
   * @param labels the labels to serve ({@code --label}, each once): the first on {@code /mcp} (or stdio), each further
   *     one on {@code /labels/NAME/mcp}; empty for every file's newest version
   * @param usageRetention how long its usage rows are kept ({@code --usage-retention}, 90 days unless given)
   */
  record Store(StoreUrl url, List<String> labels, Duration usageRetention) implements Served {
    public Store {
      labels = List.copyOf(labels);
    }

    @Override
    public Serving open(ServeOptions options, PrintStream err)
        throws IOException, InterruptedException {
      return StoreServing.open(this, options, err);
    }
  }

  /**
   * A Git branch ({@code --git URL[#BRANCH]}).
   *
   * @param options its remote, how often it is polled, and the webhook's secret
   */
  record Git(GitOptions options) implements Served {
    @Override
    public Serving open(ServeOptions options, PrintStream err) throws IOException {
      // Its own class: JGit is loaded only when a Git source is served.
      return GitServe.open(this.options, options, err);
    }
  }

  /**
   * Opens it for serving: the library (loading in the background for a store or Git) and what the server serves
   * beside it; closed when the server stops.
   *
   * @throws UsageException when the command line names it wrongly (a Git remote that does not parse)
   */
  Serving open(ServeOptions options, PrintStream err) throws IOException, InterruptedException;

  /** Whether its library is watched for changes (unless {@code --no-watch}): folders only; the others follow feeds. */
  default boolean watched() {
    return this instanceof Folders;
  }

  /** The labels served: a store's ({@link Store#labels}), else none. */
  default List<String> labels() {
    return List.of();
  }
}
