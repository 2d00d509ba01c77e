package io.promptd.library.parse;

import static java.util.Objects.requireNonNull;

import io.promptd.library.parse.template.UriTemplate;
import io.promptd.library.parse.text.Fields;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.YamlNode;
import io.promptd.library.parse.text.YamlNode.Mapping;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a templated resource file declares about one variable of its URI template under
 * {@code variables:}: the only values it takes ({@code enum}) or suggested ones ({@code examples}),
 * either flat or keyed by the value of another variable ({@code dependsOn}), as prompt arguments
 * declare them.
 *
 * @param name the variable
 * @param enumValues the only values a URI may give it (others are not found), or none
 * @param examples values suggested by completion, or none
 * @param dependsOn the variable whose value selects keyed lists, or null
 */
public record TemplateVariable(
    String name,
    Choices enumValues,
    Choices examples,
    @Nullable String dependsOn) {
  private static final Set<String> KEYS = Set.of("enum", "examples", "dependsOn", "description");

  /** Checks the fields. */
  public TemplateVariable {
    requireNonNull(name, "name");
    requireNonNull(enumValues, "enumValues");
    requireNonNull(examples, "examples");
  }

  /**
   * The values to suggest for what the user typed, {@code value}: those of {@code enum} (else
   * {@code examples}) that start with it, ignoring case, in declared order; keyed lists by the
   * other variable's value in {@code context}.
   */
  public List<String> suggest(String value, Map<String, String> context) {
    Choices choices = enumValues.isEmpty() ? examples : enumValues;
    String prefix = value.toLowerCase(Locale.ROOT);
    List<String> out = new ArrayList<>();
    for (String candidate :
        new LinkedHashSet<>(choices.forKey(dependsOn == null ? null : context.get(dependsOn)))) {
      if (candidate.toLowerCase(Locale.ROOT).startsWith(prefix)) {
        out.add(candidate);
      }
    }
    return out;
  }

  /**
   * Whether a URI may give this variable {@code value}, the other variables being {@code values}.
   */
  public boolean admits(String value, Map<String, String> values) {
    return enumValues.isEmpty()
        || enumValues.forKey(dependsOn == null ? null : values.get(dependsOn)).contains(value);
  }

  /**
   * Reads {@code variables:} of a templated resource file: a mapping from variable name to
   * {@code enum}, {@code examples}, {@code dependsOn} (and {@code description}, for readers). Every
   * name must be a variable of {@code template}; {@code dependsOn} must name another one.
   */
  static Map<String, TemplateVariable> read(
      Mapping frontMatter, UriTemplate template, Problems problems) throws ParseException {
    YamlNode node = frontMatter.get("variables");
    if (node == null || (node instanceof YamlNode.Scalar s && s.kind() == YamlNode.Kind.NULL)) {
      return Map.of();
    }
    if (!(node instanceof Mapping variables)) {
      throw new ParseException(
          node.line(), "'variables' must be a mapping from variable name to enum/examples");
    }
    Map<String, TemplateVariable> out = new LinkedHashMap<>();
    for (String name : variables.keys()) {
      YamlNode spec = variables.get(name);
      int line = spec == null ? node.line() : spec.line();
      if (!template.names().contains(name)) {
        throw new ParseException(
            line,
            "variables: '" + name + "' is not a variable of uriTemplate '" + template.text()
                + "' (it has " + String.join(", ", template.names()) + ")");
      }
      if (!(spec instanceof Mapping m)) {
        throw new ParseException(
            line, "variables: '" + name + "' must be a mapping with 'enum' or 'examples'");
      }
      Fields.warnUnknown(m, KEYS, "variable '" + name + "'", problems);
      String dependsOn = Fields.string(m, "dependsOn");
      if (dependsOn != null && (dependsOn.equals(name) || !template.names().contains(dependsOn))) {
        throw new ParseException(
            Fields.line(m, "dependsOn", line),
            "variable '" + name + "': dependsOn '" + dependsOn
                + "' must name another variable of the template");
      }
      out.put(
          name,
          new TemplateVariable(
              name,
              ArgumentReader.choices(m, "enum", "variable", name, dependsOn),
              ArgumentReader.choices(m, "examples", "variable", name, dependsOn),
              dependsOn));
    }
    return out;
  }
}
