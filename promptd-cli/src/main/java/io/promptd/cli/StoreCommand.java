package io.promptd.cli;

import io.promptd.store.FileLabel;
import io.promptd.store.FileVersion;
import io.promptd.store.FolderFiles;
import io.promptd.store.LabelMove;
import io.promptd.store.Promotion;
import io.promptd.store.PromptStore;
import io.promptd.store.Published;
import io.promptd.store.StoreException;
import io.promptd.store.StoreLabels;
import io.promptd.store.StoreUrl;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd publish DIR}, {@code history NAME} and {@code rollback NAME VERSION}, each with
 * {@code --store URL}. A mistake of the user's (a bad argument, a missing folder, a prompt the
 * store does not hold) exits with {@link Main#USAGE}; {@link Main#FAILED} is kept for the store
 * failing or being away.
 *
 * @param verb publish, history or rollback
 * @param positional DIR, NAME, or NAME and VERSION
 * @param store where the store is
 * @param author who publishes; blank for a publish from Git without {@code --author}: the commit's
 *     author
 * @param allowErrors publish files with errors
 * @param dryRun say what a publish would do, and write nothing
 * @param label the label a publish points at every file it leaves in the store, or null
 * @param fromGit the branch whose head commit a publish takes instead of a folder, or null
 * @param format how {@code history} prints its rows
 */
record StoreCommand(
    String verb,
    List<String> positional,
    StoreUrl store,
    String author,
    boolean allowErrors,
    boolean dryRun,
    @Nullable String label,
    @Nullable GitSource fromGit,
    Table.Format format) {
  StoreCommand {
    positional = List.copyOf(positional);
  }

  static StoreCommand parse(String verb, List<String> args) {
    return parse(verb, args, System.getenv());
  }

  /**
   * Parses {@code args}.
   *
   * @param env the environment: {@code PROMPTD_STORE}, and what the default author is found with
   */
  static StoreCommand parse(String verb, List<String> args, Map<String, String> env) {
    String url = env.get(StoreUrl.VARIABLE);
    String author = null;
    boolean allowErrors = false;
    boolean dryRun = false;
    String label = null;
    String fromGit = null;
    Path sshKey = null;
    Path knownHosts = null;
    Table.@Nullable Format format = null;
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (verb.equals("history") && Table.Format.ofFlag(arg) != null) {
        format = Table.Format.ofFlag(arg);
        continue;
      }
      switch (arg) {
        case "--store" -> url = value(args, ++i, arg);
        case "--author" -> author = value(args, ++i, arg);
        case "--allow-errors" -> allowErrors = true;
        case "--label" -> {
          if (!verb.equals("publish")) {
            throw new UsageException("--label is for publish, not " + verb);
          }
          label = value(args, ++i, arg);
          try {
            StoreLabels.check(label);
          } catch (StoreException e) {
            throw new UsageException(String.valueOf(e.getMessage()));
          }
        }
        case "--dry-run" -> {
          if (!verb.equals("publish")) {
            throw new UsageException("--dry-run is for publish, not " + verb);
          }
          dryRun = true;
        }
        case "--from-git" -> {
          if (!verb.equals("publish")) {
            throw new UsageException("--from-git is for publish, not " + verb);
          }
          fromGit = value(args, ++i, arg);
        }
        case "--git-ssh-key" -> sshKey = Path.of(value(args, ++i, arg));
        case "--git-known-hosts" -> knownHosts = Path.of(value(args, ++i, arg));
        default -> {
          if (arg.startsWith("-")) {
            throw UsageException.of("option.unknown.for", arg, verb);
          }
          positional.add(arg);
        }
      }
    }
    int wanted = verb.equals("rollback") ? 2 : fromGit != null ? 0 : 1;
    boolean promotions = verb.equals("history") && positional.isEmpty();
    if (positional.size() != wanted && !promotions) {
      throw new UsageException(verb + " takes "
          + (switch (verb) {
            case "publish" -> fromGit != null ? "no folder with --from-git" : "one folder";
            case "history" -> "one prompt name (or none: the store's promotions)";
            default -> "a prompt name and a version";
          })
          + ", not " + positional.size() + " argument(s)");
    }
    if (verb.equals("rollback") && !positional.get(1).matches("[1-9]\\d{0,8}")) {
      throw new UsageException(
          "rollback needs a version number (see promptd history), not '" + positional.get(1) + "'");
    }
    if (verb.equals("publish")
        && fromGit == null
        && !Files.isDirectory(Path.of(positional.getFirst()))) {
      throw UsageException.of("path.not-folder", positional.getFirst());
    }
    StoreUrl store = storeUrl(url);
    if (fromGit == null && (sshKey != null || knownHosts != null)) {
      throw new UsageException(GitSource.SSH_OPTIONS + " need publish --from-git");
    }
    GitSource git = fromGit == null ? null : new GitSource(fromGit, sshKey, knownHosts);
    if (git != null) {
      GitPublish.remote(git, "--from-git"); // checked now: a usage error
    }
    if ((author == null || author.isBlank()) && fromGit != null) {
      author = ""; // the commit's author
    } else if (author == null || author.isBlank()) {
      // history records nothing, so it need not ask Git.
      author = verb.equals("history")
          ? "unknown"
          : DefaultAuthor.of(verb.equals("publish") ? Path.of(positional.getFirst()) : null, env);
    }
    return new StoreCommand(
        verb,
        positional,
        store,
        author,
        allowErrors,
        dryRun,
        label,
        git,
        format != null ? format : Table.Format.forOutput());
  }

  /** The store URL given, or from {@code PROMPTD_STORE}; a usage error without either. */
  static StoreUrl storeUrl(@Nullable String url) {
    if (url == null || url.isBlank()) {
      throw new UsageException("name the prompt store with --store URL or " + StoreUrl.VARIABLE);
    }
    try {
      return StoreUrl.parse(url);
    } catch (IllegalArgumentException e) {
      throw new UsageException(String.valueOf(e.getMessage()));
    }
  }

  int run(PrintStream out, PrintStream err) {
    try (PromptStore s = PromptStore.open(store)) {
      return switch (verb) {
        case "publish" -> publish(s, out);
        case "history" -> history(s, out);
        default ->
          report(
              s.rollback(
                  s.paths(positional.getFirst()), Integer.parseInt(positional.get(1)), author),
              "rolled '" + positional.getFirst() + "' back to version " + positional.get(1),
              out);
      };
    } catch (StoreException e) {
      err.println("promptd: " + e.getMessage());
      return switch (e.kind()) {
        case CONFLICT -> Main.CONFLICT;
        case REFUSED -> verb.equals("publish") ? Main.CHECK_FAILED : Main.FAILED;
        case NOT_FOUND, FORBIDDEN -> Main.USAGE;
        case FAILED -> Main.FAILED;
      };
    } catch (IOException e) {
      err.println("promptd: cannot read "
          + (fromGit != null ? "the Git branch" : positional.getFirst()) + ": " + e.getMessage());
      return Main.FAILED;
    }
  }

  private int publish(PromptStore s, PrintStream out) throws StoreException, IOException {
    if (fromGit != null) {
      // Its own class: JGit is loaded only for a publish from Git.
      return GitPublish.run(s, fromGit, author, allowErrors, dryRun, out);
    }
    if (dryRun) {
      if (label != null) {
        out.println(
            "dry run: label '" + label + "' would point at every file the store then holds");
      }
      return DryRun.report(
          FolderFiles.preview(s, Path.of(positional.getFirst()), allowErrors),
          positional.getFirst(),
          out);
    }
    Published p =
        FolderFiles.publish(s, Path.of(positional.getFirst()), author, allowErrors, label);
    if (p.nothing()) {
      out.println("nothing to publish: the store already has these " + p.files()
          + " files at version " + p.libraryVersion());
    } else {
      report(p, "published " + positional.getFirst(), out);
    }
    if (label != null) {
      out.println("label '" + label + "' points at the " + p.files() + " files of library version "
          + p.libraryVersion());
    }
    return Main.OK;
  }

  static int report(Published p, String what, PrintStream out) {
    out.println(
        p.nothing()
            ? "nothing to change: the store already has that content at version "
                + p.libraryVersion()
            : what + " as library version " + p.libraryVersion() + ": " + p.added() + " added, "
                + p.changed() + " changed, " + p.deleted() + " deleted; " + p.files()
                + " files in the store");
    return Main.OK;
  }

  private int history(PromptStore s, PrintStream out) throws StoreException {
    if (positional.isEmpty()) {
      Table.print(out, format, List.of(promotions(s.labels().promotions(null))));
      return Main.OK;
    }
    String name = positional.getFirst();
    List<FileVersion> versions = s.history(name);
    List<FileLabel> labels = s.labels().list(name);
    Table rows = new Table(
        "versions",
        "PATH",
        "VERSION",
        "LIBRARY_VERSION",
        "TIME",
        "AUTHOR",
        "SHA256",
        "DELETED",
        "LABELS");
    String newestOf = null;
    for (FileVersion v : versions) {
      // Newest first per path: the first row of a path is its newest version.
      boolean latest = !v.path().equals(newestOf) && !v.deleted();
      newestOf = v.path();
      List<String> on = new ArrayList<>();
      if (latest) {
        on.add(StoreLabels.LATEST);
      }
      for (FileLabel l : labels) {
        if (!l.path().equals(v.path())) {
          continue;
        }
        if (l.split().isEmpty() && l.version() == v.version()) {
          on.add(l.label());
        }
        l.split().stream()
            .filter(share -> share.version() == v.version())
            .forEach(share -> on.add(l.label() + ":" + share.weight()));
      }
      rows.row(
          v.path(),
          v.version(),
          v.libraryVersion(),
          v.time(),
          v.author(),
          v.sha256() == null ? "-" : v.sha256(),
          v.deleted() ? "deleted" : "-",
          on.isEmpty() ? "-" : String.join(",", on));
    }
    List<Table> tables = new ArrayList<>(List.of(rows));
    List<LabelMove> moves = s.labels().moves(name);
    if (!moves.isEmpty() || format == Table.Format.JSON) {
      Table moved =
          new Table("moves", "PATH", "LABEL", "FROM", "TO", "LIBRARY_VERSION", "TIME", "AUTHOR");
      for (LabelMove m : moves) {
        moved.row(
            m.path(),
            m.label(),
            LabelCommand.version(m.from()),
            m.split() == null ? LabelCommand.version(m.to()) : m.split(),
            m.libraryVersion(),
            m.time(),
            m.author());
      }
      tables.add(moved);
    }
    List<Promotion> promotions = s.labels().promotions(name);
    if (!promotions.isEmpty() || format == Table.Format.JSON) {
      tables.add(promotions(promotions));
    }
    Table.print(out, format, tables);
    return Main.OK;
  }

  /**
   * Each promotion as one row: who, when, FROM ({@code reverts #N} for a revert), TO, and every
   * file's move.
   */
  private static Table promotions(List<Promotion> promotions) {
    Table table = new Table(
        "promotions", "PROMOTION", "FROM", "TO", "LIBRARY_VERSION", "TIME", "AUTHOR", "MOVES");
    for (Promotion p : promotions) {
      StringBuilder moves = new StringBuilder();
      for (LabelMove m : p.moves()) {
        moves
            .append(moves.isEmpty() ? "" : ", ")
            .append(m.path())
            .append(": ")
            .append(LabelCommand.version(m.from()))
            .append(" -> ")
            .append(LabelCommand.version(m.to()));
      }
      // A revert's FROM is the promotion it reverts: what production went back to.
      String from = p.reverts() == 0 ? p.from() : "reverts #" + p.reverts();
      table.row(p.id(), from, p.to(), p.libraryVersion(), p.time(), p.author(), moves.toString());
    }
    return table;
  }

  private static String value(List<String> args, int index, String option) {
    if (index >= args.size()) {
      throw UsageException.of("value.missing", option);
    }
    return args.get(index);
  }
}
