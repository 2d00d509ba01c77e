package io.promptd.cli;

import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreException;
import io.promptd.store.StoreUrl;
import io.promptd.store.UsageReport;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd usage --store URL [--since 7d] [NAME]}: uses per prompt, version and label since a
 * time, from the store's {@code prompt_usage}, as servers with {@code serve --store} wrote them
 * (every 5 s). One tab-separated line per prompt, version and label, by prompt name and then most
 * used first; the mean duration is the total divided by the uses.
 *
 * @param name the prompt to show, or null for every prompt
 * @param since how far back to count
 * @param store where the store is
 * @param format how the rows are printed
 */
record UsageCommand(@Nullable String name, Duration since, StoreUrl store, Table.Format format) {
  static final List<String> OUTCOMES =
      List.of("rendered", "refused", "form_asked", "form_declined", "error");

  static UsageCommand parse(List<String> args) {
    return parse(args, System.getenv());
  }

  /**
   * Parses {@code args} (after {@code usage}); {@code env} may name the store
   * ({@code PROMPTD_STORE}).
   */
  static UsageCommand parse(List<String> args, Map<String, String> env) {
    String url = env.get(StoreUrl.VARIABLE);
    Duration since = Duration.ofDays(7);
    String name = null;
    Table.@Nullable Format format = null;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (Table.Format.ofFlag(arg) != null) {
        format = Table.Format.ofFlag(arg);
      } else if (arg.equals("--store") || arg.equals("--since")) {
        if (++i >= args.size()) {
          throw UsageException.of("value.missing", arg);
        }
        if (arg.equals("--store")) {
          url = args.get(i);
        } else {
          since = since(args.get(i));
        }
      } else if (arg.startsWith("-")) {
        throw UsageException.of("option.unknown.for", arg, "usage");
      } else if (name == null) {
        name = arg;
      } else {
        throw new UsageException("usage takes at most one prompt name, not '" + arg + "' too");
      }
    }
    return new UsageCommand(
        name,
        since,
        StoreCommand.storeUrl(url),
        format != null ? format : Table.Format.forOutput());
  }

  /** {@code 7d}, {@code 12h}, {@code 30m}: a number of days, hours or minutes. */
  static Duration since(String value) {
    if (!value.matches("[1-9]\\d{0,5}[dhm]")) {
      throw new UsageException(
          "--since needs a number of days, hours or minutes (7d, 12h, 30m), not '" + value + "'");
    }
    long n = Long.parseLong(value.substring(0, value.length() - 1));
    return switch (value.charAt(value.length() - 1)) {
      case 'd' -> Duration.ofDays(n);
      case 'h' -> Duration.ofHours(n);
      default -> Duration.ofMinutes(n);
    };
  }

  int run(PrintStream out, PrintStream err) {
    List<UsageReport.Row> rows;
    try (StoreDatabase database = StoreDatabase.open(store)) {
      rows = UsageReport.read(database, Instant.now().minus(since), name);
    } catch (StoreException e) {
      err.println("promptd: " + e.getMessage());
      return Main.FAILED;
    }
    List<String> columns =
        new ArrayList<>(List.of("PROMPT", "VERSION", "STORE_VERSION", "LABEL", "USES"));
    OUTCOMES.forEach(o -> columns.add(o.toUpperCase(Locale.ROOT)));
    columns.add("MEAN_MS");
    Table table = new Table("usage", columns.toArray(String[]::new));
    for (UsageReport.Row r : rows) {
      List<Object> cells = new ArrayList<>(List.of(
          r.prompt(),
          r.version(),
          r.storeVersions().isEmpty()
              ? "-"
              : r.storeVersions().stream()
                  .sorted()
                  .map(String::valueOf)
                  .collect(Collectors.joining(",")),
          r.label(),
          r.uses()));
      for (String outcome : OUTCOMES) {
        cells.add(r.byOutcome().getOrDefault(outcome, 0L));
      }
      cells.add(String.format(Locale.ROOT, "%.1f", r.meanMillis()));
      table.row(cells.toArray());
    }
    Table.print(out, format, List.of(table));
    if (rows.isEmpty()) {
      err.println("promptd: no use of " + (name == null ? "any prompt" : "'" + name + "'")
          + " in the store since " + Instant.now().minus(since));
    }
    return Main.OK;
  }
}
