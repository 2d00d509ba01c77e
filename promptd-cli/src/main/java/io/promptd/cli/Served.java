package io.promptd.cli;

import io.promptd.store.StoreUrl;
import io.promptd.store.StoreUsage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What {@code promptd serve} serves, as its options name it: folders, a prompt store, or a Git
 * branch. Each kind opens into the {@link Serving} that {@link Serve} serves, the same way for all
 * three.
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
   * @param labels the labels to serve ({@code --label}, each once): the first on {@code /mcp} (or
   *     stdio), each further one on {@code /labels/NAME/mcp}; empty for every file's newest version
   * @param usageRetention how long its usage rows are kept ({@code --usage-retention}, 90 days
   *     unless given)
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
   * Opens it for serving: the library (loading in the background for a store or Git) and what the
   * server serves beside it; closed when the server stops.
   *
   * @throws UsageException when the command line names it wrongly (a Git remote that does not
   *     parse)
   */
  Serving open(ServeOptions options, PrintStream err) throws IOException, InterruptedException;

  /**
   * Whether its library is watched for changes (unless {@code --no-watch}): folders only; the
   * others follow feeds.
   */
  default boolean watched() {
    return this instanceof Folders;
  }

  /** The labels served: a store's ({@link Store#labels}), else none. */
  default List<String> labels() {
    return List.of();
  }

  /**
   * The source's options the command line gives, collected while {@link ServeOptions#parse} reads
   * it.
   */
  final class Parsed {
    /** The folders named. */
    final List<String> dirs = new ArrayList<>();

    /** {@code --store}, or null. */
    @Nullable
    String store;

    /** Each {@code --label}, in order. */
    final List<String> labels = new ArrayList<>();

    /** {@code --usage-retention}, or null. */
    @Nullable
    Duration usageRetention;

    /** The {@code --git} options. */
    final GitOptions.Parsed git = new GitOptions.Parsed();

    private @Nullable GitOptions gitOptions;

    /**
     * Names the one source (a usage error for more than one): a store is {@code --store}, else
     * {@code PROMPTD_STORE} when neither folders nor {@code --git} are named; and checks the
     * labels. Before {@link #build}, with the checks of the options that need a store between them.
     *
     * @return whether a store is served
     */
    boolean name(boolean http, Map<String, String> env) {
      gitOptions = git.build(http, env);
      if (store == null && dirs.isEmpty() && gitOptions == null) {
        String fromEnvironment = env.get(StoreUrl.VARIABLE);
        store =
            fromEnvironment == null || fromEnvironment.isBlank() ? null : fromEnvironment.strip();
      }
      if ((store != null ? 1 : 0) + (dirs.isEmpty() ? 0 : 1) + (gitOptions != null ? 1 : 0) > 1) {
        throw new UsageException("serve takes one source: folders, --store or --git");
      }
      StoreViews.checkLabels(labels, store != null, http);
      return store != null;
    }

    /** The source named (see {@link #name}). */
    Served build() {
      String named = store;
      if (usageRetention != null && named == null) {
        throw new UsageException(
            "--usage-retention needs --store: only the store keeps usage rows");
      }
      GitOptions g = gitOptions;
      if (g != null) {
        return new Git(g);
      }
      if (named != null) {
        Duration retention = usageRetention;
        return new Store(
            StoreCommand.storeUrl(named),
            labels,
            retention == null ? StoreUsage.DEFAULT_RETENTION : retention);
      }
      return new Folders(directories(dirs));
    }
  }

  /** {@code --usage-retention}: a number of days or hours, such as {@code 90d} or {@code 36h}. */
  static Duration retention(String value) {
    if (!value.matches("[1-9][0-9]{0,5}[dh]")) {
      throw new UsageException(
          "--usage-retention needs a number of days or hours (90d, 36h), not '" + value + "'");
    }
    long n = Long.parseLong(value.substring(0, value.length() - 1));
    return value.endsWith("d") ? Duration.ofDays(n) : Duration.ofHours(n);
  }

  /** The folders named on the command line; each must exist. */
  static List<Path> directories(List<String> args) {
    if (args.isEmpty()) {
      throw UsageException.of("path.needed.serve");
    }
    List<Path> out = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("-")) {
        throw UsageException.of("option.unknown", arg);
      }
      Path dir = Path.of(arg).toAbsolutePath().normalize();
      if (!Files.isDirectory(dir)) {
        throw UsageException.of("path.not-folder", arg);
      }
      out.add(dir);
    }
    return out;
  }
}
