package io.promptd.cli;

import io.promptd.library.Diagnostic;
import io.promptd.library.Linter;
import io.promptd.library.Severity;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/** {@code promptd check DIR…}: every problem of prompt and resource files as file:line, exit 1 on any error. */
final class Check {
  private Check() {}

  static int run(List<Path> directories, PrintStream out) {
    List<Diagnostic> diagnostics;
    try {
      diagnostics = Linter.check(directories);
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
