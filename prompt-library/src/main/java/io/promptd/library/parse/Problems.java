package io.promptd.library.parse;

import io.promptd.library.Diagnostic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Collects the diagnostics of one file. */
public final class Problems {
  private final Path file;
  private final List<Diagnostic> list = new ArrayList<>();

  /** Problems of {@code file}. */
  public Problems(Path file) {
    this.file = file;
  }

  /** Records an error. */
  public void error(int line, String message) {
    list.add(Diagnostic.error(file, line, message));
  }

  /** Records a warning. */
  public void warning(int line, String message) {
    list.add(Diagnostic.warning(file, line, message));
  }

  /** Records a parse failure as an error. */
  public void error(ParseException e) {
    error(e.line(), e.getMessage());
  }

  /** Whether any error was recorded. */
  public boolean hasErrors() {
    return list.stream().anyMatch(Diagnostic::isError);
  }

  /** Everything recorded, in order. */
  public List<Diagnostic> all() {
    return List.copyOf(list);
  }
}
