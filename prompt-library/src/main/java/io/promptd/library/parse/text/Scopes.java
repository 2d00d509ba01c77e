package io.promptd.library.parse.text;

import io.promptd.library.parse.text.YamlNode.Kind;
import io.promptd.library.parse.text.YamlNode.Mapping;
import io.promptd.library.parse.text.YamlNode.Scalar;
import io.promptd.library.parse.text.YamlNode.Sequence;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The {@code scopes} key of front matter and folder files: the OAuth scopes a caller must hold (all
 * of them) to see a prompt or resource. {@code scopes: []} makes it public; an absent key inherits
 * the folder default.
 */
public final class Scopes {
  /** The key. */
  public static final String KEY = "scopes";

  private Scopes() {}

  /**
   * The scopes under {@link #KEY} in {@code yaml}: null when the key is absent, else a list of
   * scope tokens (one scalar is a list of one).
   *
   * @throws ParseException at the line of the first value that is not a scope token (RFC 6749,
   *     section 3.3)
   */
  public static @Nullable Set<String> read(Mapping yaml) throws ParseException {
    YamlNode node = yaml.get(KEY);
    if (node == null) {
      return null;
    }
    List<YamlNode> items = switch (node) {
      case Sequence s -> s.items();
      case Scalar s when s.kind() != Kind.NULL -> List.of(s);
      default ->
        throw new ParseException(
            node.line(),
            "'scopes' must be a list of scopes, such as [prompts.read] ([] makes it public)");
    };
    Set<String> scopes = new LinkedHashSet<>();
    for (YamlNode item : items) {
      if (!(item instanceof Scalar s) || s.kind() == Kind.NULL) {
        throw new ParseException(item.line(), "'scopes' must be a list of strings");
      }
      scopes.add(check(s.text(), s.line()));
    }
    return Set.copyOf(scopes);
  }

  /**
   * {@code scope} when it is an RFC 6749 scope token: printable ASCII except space, {@code "} and
   * {@code \}.
   */
  private static String check(String scope, int line) throws ParseException {
    if (scope.isEmpty()) {
      throw new ParseException(line, "a scope cannot be empty");
    }
    for (int i = 0; i < scope.length(); i++) {
      char c = scope.charAt(i);
      if (c == ' ') {
        throw new ParseException(
            line,
            "scope '" + scope + "' contains a space; list each scope on its own, as in ["
                + String.join(", ", scope.trim().split(" +")) + "]");
      }
      if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') {
        throw new ParseException(
            line,
            "scope '" + scope + "' has a character a scope cannot have ("
                + (c < 0x21 || c > 0x7E ? String.format("U+%04X", (int) c) : "'" + c + "'")
                + "): scopes are printable ASCII without spaces, '\"' or '\\'");
      }
    }
    return scope;
  }
}
