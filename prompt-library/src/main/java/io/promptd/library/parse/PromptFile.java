package io.promptd.library.parse;

import static java.util.Objects.requireNonNull;

import io.promptd.library.parse.template.Part;
import io.promptd.library.parse.text.Root;
import io.promptd.mcp.protocol.Prompt;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A prompt file that parsed: everything needed to list, render and complete it.
 *
 * @param file the file
 * @param root the root it is under
 * @param nameLine the line that sets its name (1 when derived from the path)
 * @param prompt the metadata {@code prompts/list} shows
 * @param arguments the declared arguments with their rules, in order
 * @param parts the body, compiled
 * @param scopes the scopes its front matter requires, or null when it sets none and so takes its
 *     folder's default
 * @param elicit whether the server may ask the user for missing or invalid arguments
 *     ({@code elicit: false} opts out)
 */
public record PromptFile(
    Path file,
    Root root,
    int nameLine,
    Prompt prompt,
    List<ArgumentSpec> arguments,
    List<Part> parts,
    @Nullable Set<String> scopes,
    boolean elicit) {
  /** Checks and copies the fields. */
  public PromptFile {
    requireNonNull(file, "file");
    requireNonNull(root, "root");
    requireNonNull(prompt, "prompt");
    arguments = List.copyOf(arguments);
    parts = List.copyOf(parts);
    scopes = scopes == null ? null : Set.copyOf(scopes);
  }

  /** A prompt file whose missing or invalid arguments the server may ask the user for. */
  public PromptFile(
      Path file,
      Root root,
      int nameLine,
      Prompt prompt,
      List<ArgumentSpec> arguments,
      List<Part> parts,
      @Nullable Set<String> scopes) {
    this(file, root, nameLine, prompt, arguments, parts, scopes, true);
  }

  /** A prompt file that sets no scopes of its own. */
  public PromptFile(
      Path file,
      Root root,
      int nameLine,
      Prompt prompt,
      List<ArgumentSpec> arguments,
      List<Part> parts) {
    this(file, root, nameLine, prompt, arguments, parts, null);
  }

  /** The prompt's name. */
  public String name() {
    return prompt.name();
  }
}
