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
 * {@code promptd check [--clients] PATH…}: every problem of the prompt and resource files in
 * folders, or of single files, as file:line, exit 1 on any error; with {@code --clients}, also what
 * each known client will do with each prompt, as warnings.
 *
 * @param paths the folders and files to check
 * @param forClients whether to warn of what known clients will do with the prompts
 */
record Check(List<Path> paths, boolean forClients) {
  /** The folders and files named on the command line, each of which must exist, and the flag. */
  static Check parse(List<String> args) {
    boolean forClients = false;
    List<Path> out = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("--clients")) {
        forClients = true;
        continue;
      }
      if (arg.startsWith("-")) {
        throw UsageException.of("option.unknown", arg);
      }
      Path path = Path.of(arg).toAbsolutePath().normalize();
      if (!Files.isDirectory(path) && !Files.isRegularFile(path)) {
        throw UsageException.of("path.none", arg);
      }
      out.add(path);
    }
    if (out.isEmpty()) {
      throw UsageException.of("path.needed.check");
    }
    return new Check(out, forClients);
  }

  int run(PrintStream out) {
    Linter.Report report;
    try {
      report = Linter.report(paths, forClients);
    } catch (IOException e) {
      out.println("promptd: cannot read prompt files: " + e.getMessage());
      return Main.FAILED;
    }
    List<Diagnostic> diagnostics = report.diagnostics();
    long errors =
        diagnostics.stream().filter(d -> d.severity() == Severity.ERROR).count();
    for (Diagnostic d : diagnostics) {
      out.println(d.format());
    }
    out.println(errors + " error(s), " + (diagnostics.size() - errors) + " warning(s)");
    List<String> scoped = report.scopedPrompts();
    if (!scoped.isEmpty()) {
      out.println("note: " + ScopeNote.prompts(scoped)
          + ": scopes apply only when promptd serves with OAuth (--oauth-issuer); with a static"
          + " token, or none, every caller sees every prompt");
    }
    return errors > 0 ? Main.CHECK_FAILED : Main.OK;
  }
}
