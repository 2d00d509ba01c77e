package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a rendered prompt is folded into one user text message. Some clients use only the first
 * message of a {@code prompts/get} result, and only when it is text (Gemini CLI, Qwen Code): the
 * rest of a prompt of several messages, an image or an embedded resource never reaches their model.
 * Folded, the whole prompt is one text: the speaker's changes marked in words, embedded text
 * resources inlined with their URI, images, audio, binary resources and links each a one-line
 * reference, within a size bound that says where it cuts (docs/clients.md shows the form).
 *
 * <p>The server's setting ({@code McpServer.Builder#folding}) is every prompt's default; a prompt
 * overrides it in its {@code _meta}: {@value #META} set to {@code "auto"}, {@code "always"} or
 * {@code "never"} (the prompt library writes it from the front matter's {@code fold}).
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public enum PromptFolding {
  /** For the clients known to use only the first text message; never for others. The default. */
  AUTO,
  /** For every client. */
  ALWAYS,
  /** Never: every client gets the messages as rendered. */
  NEVER;

  /** The prompt {@code _meta} key of a prompt's own setting: its {@link #id()}. */
  public static final String META = "io.promptd/fold";

  /** The setting's name in front matter, options and {@code _meta}: {@code auto}, … */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The setting named {@code id} ({@code auto}, {@code always} or {@code never}, in any case);
   * empty for any other text.
   */
  public static Optional<PromptFolding> of(String id) {
    requireNonNull(id, "id");
    for (PromptFolding f : values()) {
      if (f.id().equals(id.toLowerCase(Locale.ROOT))) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }
}
