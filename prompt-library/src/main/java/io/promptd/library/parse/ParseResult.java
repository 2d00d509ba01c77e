package io.promptd.library.parse;

import io.promptd.library.Diagnostic;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What parsing one file gave.
 *
 * @param file the file
 * @param prompt the prompt, or null when the file has any error (warnings do not stop it)
 * @param diagnostics everything found wrong, errors and warnings
 * @param dependencies partials and attachments it reads (even ones that were missing), so a change
 *     to them reloads it
 * @param attachments the library files its body attaches or links to ({@code promptd:///}), served
 *     as resources
 * @param fingerprint a hash of the file's bytes, to skip reloading a file saved unchanged
 */
public record ParseResult(
    Path file,
    @Nullable PromptFile prompt,
    List<Diagnostic> diagnostics,
    Set<Path> dependencies,
    Set<Path> attachments,
    long fingerprint) {
  /** Copies the collections. */
  public ParseResult {
    diagnostics = List.copyOf(diagnostics);
    dependencies = Set.copyOf(dependencies);
    attachments = Set.copyOf(attachments);
  }
}
