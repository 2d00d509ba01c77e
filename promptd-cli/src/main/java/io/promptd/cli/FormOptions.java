package io.promptd.cli;

import io.promptd.mcp.server.FreeTextConfirmation;
import java.util.Locale;

/**
 * How {@code serve} asks users for prompt arguments in clients that can show forms.
 *
 * @param elicit whether the server may ask at all ({@code --no-elicit}: never)
 * @param formFirst whether arguments are listed as optional to such clients and asked for in one
 *     form ({@code --no-form-first}: listed as declared)
 * @param confirmFreeText whether given free text is shown in the form for checking
 *     ({@code --confirm-free-text})
 */
record FormOptions(boolean elicit, boolean formFirst, FreeTextConfirmation confirmFreeText) {
  /** The defaults: ask, form-first, free text checked for clients known to cut it at spaces. */
  static final FormOptions DEFAULT = new FormOptions(true, true, FreeTextConfirmation.AUTO);

  /** Reads {@code --confirm-free-text}'s value: {@code auto}, {@code always} or {@code never}. */
  static FreeTextConfirmation confirmation(String value) {
    return switch (value.toLowerCase(Locale.ROOT)) {
      case "auto" -> FreeTextConfirmation.AUTO;
      case "always" -> FreeTextConfirmation.ALWAYS;
      case "never" -> FreeTextConfirmation.NEVER;
      default ->
        throw new UsageException(
            "--confirm-free-text must be auto, always or never, not '" + value + "'");
    };
  }
}
