package io.promptd.cli;

import io.promptd.library.Importer;
import io.promptd.library.LibraryOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code promptd import SRC DEST [--force]}: every prompt file under SRC, in any format promptd
 * reads, written to DEST as a native {@code NAME.prompt.md}; one line per file, then what could not
 * be carried over. Exit 1 when a file was not converted.
 */
final class Import {
  private Import() {}

  static int run(List<String> args, PrintStream out) {
    List<String> positional = new ArrayList<>();
    boolean force = false;
    for (String a : args) {
      if (a.equals("--force")) {
        force = true;
      } else if (a.startsWith("--")) {
        throw UsageException.of("option.unknown", a);
      } else {
        positional.add(a);
      }
    }
    if (positional.size() != 2) {
      throw new UsageException("import takes SRC and DEST folders, got " + positional);
    }
    Path source = Path.of(positional.get(0));
    Path target = Path.of(positional.get(1));
    if (!Files.isDirectory(source)) {
      throw new UsageException("'" + source + "' is not a folder");
    }
    List<Importer.Converted> results;
    try {
      results = Importer.convert(
          source, target, force, LibraryOptions.defaults().withCacheDirectory(null));
    } catch (IOException e) {
      out.println("promptd: cannot import: " + e.getMessage());
      return Main.FAILED;
    }
    int failed = 0;
    for (Importer.Converted c : results) {
      if (c.target() == null) {
        failed++;
        out.println("skipped   " + c.source());
      } else {
        out.println("converted " + c.source() + " -> " + c.target());
      }
      for (String note : c.notes()) {
        out.println("    " + note);
      }
    }
    out.println((results.size() - failed) + " converted, " + failed + " not converted");
    return failed > 0 ? Main.CHECK_FAILED : Main.OK;
  }
}
