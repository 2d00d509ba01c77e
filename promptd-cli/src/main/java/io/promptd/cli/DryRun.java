package io.promptd.cli;

import io.promptd.store.Preview;
import java.io.PrintStream;
import java.util.List;

/** {@code promptd publish --dry-run}: what a publish would do, file by file; nothing is written. */
final class DryRun {
  private DryRun() {}

  static int report(Preview p, String dir, PrintStream out) {
    if (p.nothing()) {
      out.println("dry run: nothing to publish: the store already has these " + p.files()
          + " files at version " + p.libraryVersion());
      return Main.OK;
    }
    out.println("dry run: publishing " + dir + " would make library version " + p.libraryVersion()
        + ": " + p.added().size() + " added, " + p.changed().size() + " changed, "
        + p.deleted().size() + " deleted; " + p.files() + " files in the store");
    list("added", p.added(), out);
    list("changed", p.changed(), out);
    list("deleted", p.deleted(), out);
    out.println("nothing was written (run it without --dry-run to publish)");
    return Main.OK;
  }

  private static void list(String what, List<String> paths, PrintStream out) {
    for (String path : paths) {
      out.println("  " + what + "\t" + path);
    }
  }
}
