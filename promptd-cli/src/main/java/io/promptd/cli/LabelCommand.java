package io.promptd.cli;

import io.promptd.store.FileLabel;
import io.promptd.store.LabelMove;
import io.promptd.store.Promotion;
import io.promptd.store.PromptStore;
import io.promptd.store.SplitShare;
import io.promptd.store.StoreException;
import io.promptd.store.StoreLabels;
import io.promptd.store.StoreUrl;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd label set NAME VERSION LABEL}, {@code label list [NAME]}, {@code label rm NAME
 * LABEL}, {@code label split LABEL NAME VERSION:WEIGHT VERSION:WEIGHT...}, {@code label promote
 * FROM TO}, {@code label revert PROMOTION}, {@code label protect LABEL --scope SCOPE} and
 * {@code label unprotect LABEL}, each with {@code --store URL}. The command line holds the
 * database's credentials, so it moves protected labels too. Moves are recorded with the
 * operating-system user as their author. A mistake of the user's (a bad label, {@code latest}, a
 * name or version the store does not hold) exits with {@link Main#USAGE} and writes nothing;
 * {@link Main#FAILED} is kept for the store failing or being away, and {@link Main#CONFLICT} for a
 * revert refused because a label moved since the promotion.
 *
 * @param action set, list, rm, split, promote, revert, protect or unprotect
 * @param positional NAME VERSION LABEL, [NAME], NAME LABEL, LABEL NAME SHARE..., FROM TO,
 *     PROMOTION, or LABEL
 * @param scope the scope of {@code protect}, else null
 * @param store where the store is
 * @param author who moves the label
 * @param format how {@code list} prints its rows
 * @param only the prompts {@code promote} moves, or none for every file
 * @param dryRun {@code promote} or {@code revert} says what it would move and writes nothing
 */
record LabelCommand(
    String action,
    List<String> positional,
    @Nullable String scope,
    StoreUrl store,
    String author,
    Table.Format format,
    List<String> only,
    boolean dryRun) {
  private static final List<String> ACTIONS =
      List.of("set", "list", "rm", "split", "promote", "revert", "protect", "unprotect");

  LabelCommand {
    positional = List.copyOf(positional);
    only = List.copyOf(only);
  }

  static LabelCommand parse(List<String> args) {
    return parse(args, System.getenv(), System.getProperty("user.name", "unknown"));
  }

  /**
   * Parses {@code args} (after {@code label}).
   *
   * @param env the environment: {@code PROMPTD_STORE}
   * @param user the operating-system user, recorded with each move
   */
  static LabelCommand parse(List<String> args, Map<String, String> env, String user) {
    if (args.isEmpty() || !ACTIONS.contains(args.getFirst())) {
      throw new UsageException(
          "label needs an action: set, list, rm, split, promote, revert, protect or unprotect"
              + (args.isEmpty() ? "" : ", not '" + args.getFirst() + "'"));
    }
    String action = args.getFirst();
    String url = env.get(StoreUrl.VARIABLE);
    String scope = null;
    Table.@Nullable Format format = null;
    List<String> only = new ArrayList<>();
    boolean dryRun = false;
    List<String> positional = new ArrayList<>();
    for (int i = 1; i < args.size(); i++) {
      String arg = args.get(i);
      if (action.equals("list") && Table.Format.ofFlag(arg) != null) {
        format = Table.Format.ofFlag(arg);
      } else if (arg.equals("--store")) {
        if (++i >= args.size()) {
          throw UsageException.of("value.missing", "--store");
        }
        url = args.get(i);
      } else if (arg.equals("--only") && action.equals("promote")) {
        if (++i >= args.size()) {
          throw new UsageException("--only needs a prompt name");
        }
        only.add(args.get(i));
      } else if (arg.equals("--dry-run") && (action.equals("promote") || action.equals("revert"))) {
        dryRun = true;
      } else if (arg.equals("--scope") && action.equals("protect")) {
        if (++i >= args.size()) {
          throw UsageException.of("value.missing", "--scope");
        }
        scope = args.get(i);
      } else if (arg.startsWith("-")) {
        throw UsageException.of("option.unknown.for", arg, "label " + action);
      } else {
        positional.add(arg);
      }
    }
    String wanted = switch (action) {
      case "set" -> positional.size() == 3 ? null : "a name, a version and a label";
      case "rm" -> positional.size() == 2 ? null : "a name and a label";
      case "promote" -> positional.size() == 2 ? null : "two labels, FROM and TO";
      case "revert" ->
        positional.size() == 1 ? null : "a promotion number (see promptd history --store)";
      case "split" ->
        positional.size() >= 4
            ? null
            : "a label, a name and two or more VERSION:WEIGHT (label split production review 7:90"
                + " 8:10)";
      case "protect", "unprotect" -> positional.size() == 1 ? null : "a label";
      default -> positional.size() <= 1 ? null : "at most one name";
    };
    if (wanted != null) {
      throw new UsageException(
          "label " + action + " takes " + wanted + ", not " + positional.size() + " argument(s)");
    }
    if (action.equals("set") && !positional.get(1).matches("[1-9]\\d{0,8}")) {
      throw new UsageException("label set needs a version number (see promptd history), not '"
          + positional.get(1) + "'");
    }
    if (action.equals("revert") && !positional.getFirst().matches("[1-9]\\d{0,17}")) {
      throw new UsageException("label revert needs a promotion number (see promptd history"
          + " --store), not '" + positional.getFirst() + "'");
    }
    if (action.equals("protect") && scope == null) {
      throw new UsageException("label protect needs --scope SCOPE: the OAuth scope that moving the"
          + " label over the management API needs");
    }
    if (action.equals("split")) {
      shares(positional);
    }
    if (!action.equals("list") && !action.equals("revert")) {
      try {
        if (action.equals("promote") && !positional.getFirst().equals(StoreLabels.LATEST)) {
          StoreLabels.check(positional.getFirst());
        }
        StoreLabels.check(action.equals("split") ? positional.getFirst() : positional.getLast());
      } catch (StoreException e) {
        throw new UsageException(String.valueOf(e.getMessage()));
      }
    }
    return new LabelCommand(
        action,
        positional,
        scope,
        StoreCommand.storeUrl(url),
        user,
        format != null ? format : Table.Format.forOutput(),
        only,
        dryRun);
  }

  int run(PrintStream out, PrintStream err) {
    try (PromptStore s = PromptStore.open(store)) {
      StoreLabels labels = s.labels();
      String name = positional.isEmpty() ? null : positional.getFirst();
      switch (action) {
        case "set" -> {
          int version = Integer.parseInt(positional.get(1));
          String label = positional.get(2);
          List<LabelMove> moves = labels.set(positional.getFirst(), version, label, author);
          if (moves.isEmpty()) {
            out.println("label '" + label + "' already points at version " + version + " of '"
                + name + "'; nothing moved");
          }
          moves.forEach(m -> out.println(describe(m)));
        }
        case "rm" ->
          labels
              .remove(positional.getFirst(), positional.get(1), author)
              .forEach(m -> out.println(describe(m)));
        case "promote" -> {
          String from = positional.getFirst();
          String to = positional.get(1);
          List<LabelMove> moves =
              labels.promote(from, to, only, author, null, null, dryRun).moves();
          if (moves.isEmpty()) {
            out.println(
                "label '" + to + "' already points where '" + from + "' does; nothing" + " moved");
          } else {
            moves.forEach(m -> out.println((dryRun ? "would move " : "") + describe(m)));
            out.println(
                dryRun
                    ? moves.size() + " file(s) would move; nothing was written (--dry-run)"
                    : "promoted '" + from + "' to '" + to + "': " + moves.size() + " file(s) moved"
                        + " as library version " + moves.getFirst().libraryVersion());
          }
        }
        case "revert" -> revert(labels, Long.parseLong(positional.getFirst()), out);
        case "split" -> {
          String label = positional.getFirst();
          List<LabelMove> moves =
              labels.split(positional.get(1), label, shares(positional), author);
          if (moves.isEmpty()) {
            out.println("label '" + label + "' of '" + positional.get(1) + "' is that split"
                + " already; nothing moved");
          }
          moves.forEach(m -> out.println(describe(m)));
        }
        case "protect" -> {
          labels.protect(positional.getFirst(), String.valueOf(scope), author);
          out.println("label '" + positional.getFirst() + "' is protected: moving it over the"
              + " management API needs the scope '" + scope + "'");
        }
        case "unprotect" -> {
          labels.unprotect(positional.getFirst());
          out.println("label '" + positional.getFirst() + "' is no longer protected");
        }
        default -> {
          List<FileLabel> all = labels.list(name);
          boolean splits = all.stream().anyMatch(l -> !l.split().isEmpty());
          Table table = splits
              ? new Table("labels", "PATH", "LABEL", "VERSION", "SPLIT")
              : new Table("labels", "PATH", "LABEL", "VERSION");
          for (FileLabel l : all) {
            if (splits) {
              table.row(l.path(), l.label(), l.version(), split(l.split()));
            } else {
              table.row(l.path(), l.label(), l.version());
            }
          }
          Table.print(out, format, List.of(table));
        }
      }
      return Main.OK;
    } catch (StoreException e) {
      err.println("promptd: " + e.getMessage());
      return switch (e.kind()) {
        case FAILED -> Main.FAILED;
        case CONFLICT -> Main.CONFLICT;
        default -> Main.USAGE;
      };
    }
  }

  /** {@code label revert PROMOTION}: each move it makes, then what it did. */
  private void revert(StoreLabels labels, long promotion, PrintStream out) throws StoreException {
    Promotion p = labels.revert(promotion, author, null, null, dryRun, moves -> {});
    List<LabelMove> moves = p.moves();
    moves.forEach(m -> out.println((dryRun ? "would move " : "") + describe(m)));
    out.println(
        dryRun
            ? moves.size() + " file(s) would move back; nothing was written (--dry-run)"
            : "reverted promotion #" + promotion + ": " + moves.size() + " file(s) moved back"
                + " as promotion #" + p.id() + ", library version " + p.libraryVersion());
  }

  /** The VERSION:WEIGHT arguments of {@code label split} (after LABEL and NAME). */
  private static List<SplitShare> shares(List<String> positional) {
    List<SplitShare> shares = new ArrayList<>();
    for (String given : positional.subList(2, positional.size())) {
      try {
        shares.add(SplitShare.parse(given));
      } catch (IllegalArgumentException e) {
        throw new UsageException("label split: " + e.getMessage());
      }
    }
    return shares;
  }

  /** A split as given ({@code 7:90 8:10}), or {@code -} for none. */
  static String split(List<SplitShare> shares) {
    return shares.isEmpty() ? "-" : SplitShare.text(shares);
  }

  /** One move, as {@code label set}, {@code label rm} and {@code label split} print it. */
  static String describe(LabelMove m) {
    return "label '" + m.label() + "' on " + m.path() + ": " + version(m.from()) + " -> "
        + (m.split() == null ? version(m.to()) : "split " + m.split());
  }

  /** A version of a move, or {@code -} for none. */
  static String version(int v) {
    return v == 0 ? "-" : Integer.toString(v);
  }
}
