package io.promptd.cli;

import io.promptd.library.Diagnostic;
import io.promptd.library.Linter;
import io.promptd.library.Severity;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code promptd check PATH…}: every problem of the prompt and resource files in folders, or of
 * single files, as file:line, exit 1 on any error.
 */
final class Check {
  private Check() {}

  /** The folders and files named on the command line; each must exist. */
  static List<Path> paths(List<String> args) {
    if (args.isEmpty()) {
      throw UsageException.of("path.needed.check");
    }
    List<Path> out = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("-")) {
        throw UsageException.of("option.unknown", arg);
      }
      Path path = Path.of(arg).toAbsolutePath().normalize();
      if (!Files.isDirectory(path) && !Files.isRegularFile(path)) {
        throw UsageException.of("path.none", arg);
      }
      out.add(path);
    }
    return out;
  }

  static int run(List<Path> paths, PrintStream out) {
    List<Diagnostic> diagnostics;
    try {
      diagnostics = Linter.check(paths);
    } catch (IOException e) {
      out.println("promptd: cannot read prompt files: " + e.getMessage());
      return Main.FAILED;
    }
    long errors =
        diagnostics.stream().filter(d -> d.severity() == Severity.ERROR).count();
    for (Diagnostic d : diagnostics) {
      out.println(d.format());
    }
    out.println(errors + " error(s), " + (diagnostics.size() - errors) + " warning(s)");
    return errors > 0 ? Main.CHECK_FAILED : Main.OK;
  }
}
