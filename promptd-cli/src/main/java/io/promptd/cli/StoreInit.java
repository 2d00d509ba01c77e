package io.promptd.cli;

import io.promptd.store.SchemaInit;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreException;
import io.promptd.store.StoreUrl;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * {@code promptd store init --store URL}: the operator's explicit step that creates the store's
 * schema in an empty database (or brings it up to date), run as the role the servers will use.
 * Every other store command still migrates on first use; this one checks the role's rights first
 * and says what it lacks, with the statement that grants it. That, and any failure of the store,
 * exits with {@link Main#FAILED}; a mistake on the command line with {@link Main#USAGE}.
 *
 * @param store where the store is
 */
record StoreInit(StoreUrl store) {
  static StoreInit parse(List<String> args) {
    return parse(args, System.getenv());
  }

  /**
   * Parses {@code args} (after {@code store}).
   *
   * @param env the environment: {@code PROMPTD_STORE}
   */
  static StoreInit parse(List<String> args, Map<String, String> env) {
    if (args.isEmpty() || !args.getFirst().equals("init")) {
      throw new UsageException("store needs an action: init"
          + (args.isEmpty() ? "" : ", not '" + args.getFirst() + "'"));
    }
    String url = env.get(StoreUrl.VARIABLE);
    for (int i = 1; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.equals("--store")) {
        throw arg.startsWith("-")
            ? UsageException.of("option.unknown.for", arg, "store init")
            : new UsageException("store init takes no argument but --store URL, not '" + arg + "'");
      }
      if (++i >= args.size()) {
        throw UsageException.of("value.missing", "--store");
      }
      url = args.get(i);
    }
    return new StoreInit(StoreCommand.storeUrl(url));
  }

  int run(PrintStream out, PrintStream err) {
    try (StoreDatabase database = StoreDatabase.open(store)) {
      SchemaInit done = database.init();
      out.println(
          done.applied() == 0
              ? "the store's schema is current at version " + done.after() + " in " + store
              : done.before() == 0
                  ? "created the store's schema at version " + done.after() + " in " + store
                  : "migrated the store's schema from version " + done.before() + " to "
                      + done.after() + " in " + store);
      return Main.OK;
    } catch (StoreException e) {
      err.println("promptd: " + e.getMessage());
      return Main.FAILED;
    }
  }
}
