package io.promptd.library.parse.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Text with named holes, for the Claude Code, VS Code, Codex, Cursor and Gemini CLI formats:
 * literal pieces and argument references, filled in one pass so an inserted value is never scanned
 * again.
 */
public final class PlaceholderTemplate implements TextTemplate {
  /** A piece of the text. */
  public sealed interface Piece permits Literal, Ref, Joined, Appended {}

  /** Text kept as written. */
  public record Literal(String text) implements Piece {}

  /** The value of one argument; empty when absent. */
  public record Ref(String name) implements Piece {}

  /**
   * The non-empty values of several arguments, joined by spaces ({@code $ARGUMENTS} over positional
   * ones).
   */
  public record Joined(List<String> names) implements Piece {}

  /**
   * An argument's value after a blank line, or nothing when it is empty (what a command's caller
   * typed after it).
   */
  public record Appended(String name) implements Piece {}

  private final List<Piece> pieces;

  public PlaceholderTemplate(List<Piece> pieces) {
    this.pieces = List.copyOf(pieces);
  }

  /** The pieces, in order. */
  public List<Piece> pieces() {
    return pieces;
  }

  @Override
  public String render(Map<String, Object> values) {
    StringBuilder out = new StringBuilder();
    for (Piece piece : pieces) {
      switch (piece) {
        case Literal l -> out.append(l.text());
        case Ref r -> out.append(String.valueOf(values.getOrDefault(r.name(), "")));
        case Appended a -> {
          String value = String.valueOf(values.getOrDefault(a.name(), ""));
          if (!value.isEmpty()) {
            // After a blank line: as many line ends as the text so far lacks.
            int ends = 0;
            while (ends < 2 && ends < out.length() && out.charAt(out.length() - 1 - ends) == '\n') {
              ends++;
            }
            out.append(out.isEmpty() ? "" : "\n\n".substring(ends)).append(value);
          }
        }
        case Joined j -> {
          List<String> present = new ArrayList<>();
          for (String name : j.names()) {
            String value = String.valueOf(values.getOrDefault(name, ""));
            if (!value.isEmpty()) {
              present.add(value);
            }
          }
          out.append(String.join(" ", present));
        }
      }
    }
    return out.toString();
  }
}
