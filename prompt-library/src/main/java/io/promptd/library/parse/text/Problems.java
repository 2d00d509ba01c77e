package io.promptd.library.parse.text;

import io.promptd.library.Diagnostic;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Collects the diagnostics of one file. Any error keeps the file from being served (the parser
 * gives no prompt then). An error that leaves nothing to build a prompt from is either thrown as a
 * {@link ParseException} (nothing after it can be checked) or recorded with {@link #fail}, after
 * which parsing goes on to find the file's other errors, so that {@code promptd check} reports them
 * all at once; parsing goes on past one recorded with {@link #error} as if it had none.
 */
public final class Problems {
  /** By file, then line: the order every diagnostics list is reported in. */
  public static final Comparator<Diagnostic> ORDER = (a, b) -> {
    int byFile = a.file().toString().compareTo(b.file().toString());
    return byFile != 0 ? byFile : Integer.compare(a.line(), b.line());
  };

  /** A step of parsing that may fail with a {@link ParseException}. */
  @FunctionalInterface
  public interface Step<T> {
    /** Runs the step. */
    @Nullable
    T run() throws ParseException;
  }

  private final Path file;
  private final List<Diagnostic> list = new ArrayList<>();
  private boolean failed;

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

  /** Records an error that leaves no prompt to build; parsing may go on to find more. */
  public void fail(ParseException e) {
    failed = true;
    error(e);
  }

  /**
   * What {@code step} gives, or null once its error is recorded with {@link #fail}: for a check
   * that does not depend on the ones before it.
   */
  public <T> @Nullable T attempt(Step<T> step) {
    try {
      return step.run();
    } catch (ParseException e) {
      fail(e);
      return null;
    }
  }

  /** Whether an error that leaves no prompt to build was recorded with {@link #fail}. */
  public boolean failed() {
    return failed;
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
