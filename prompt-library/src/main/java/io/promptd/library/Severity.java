package io.promptd.library;

import io.promptd.mcp.api.Stability;
import java.util.Locale;

/** How bad a {@link Diagnostic} is. */
@Stability(Stability.Tier.STABLE)
public enum Severity {
  /** The file, or part of it, cannot be served as written; {@code promptd check} exits non-zero. */
  ERROR,
  /** Served, but probably not what the author meant. */
  WARNING;

  /** The word used in formatted diagnostics: {@code error} or {@code warning}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
