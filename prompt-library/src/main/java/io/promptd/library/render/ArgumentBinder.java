package io.promptd.library.render;

import io.promptd.library.parse.ArgType;
import io.promptd.library.parse.ArgumentSpec;
import io.promptd.mcp.server.ArgumentsNeeded;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks argument values against their declared rules and fills defaults, giving the values
 * templates see: {@code Boolean} for boolean arguments (so {@code {{#flag}}} works), strings
 * otherwise.
 */
final class ArgumentBinder {
  private final String prompt;
  private final List<ArgumentSpec> specs;

  ArgumentBinder(String prompt, List<ArgumentSpec> specs) {
    this.prompt = prompt;
    this.specs = List.copyOf(specs);
  }

  /**
   * Every given value in {@code arguments} that breaks its argument's rules, as questions for a
   * form; missing values are not looked at (the server asks for those itself).
   */
  List<ArgumentsNeeded.Question> violations(Map<String, String> arguments) {
    List<ArgumentsNeeded.Question> out = new ArrayList<>();
    for (ArgumentSpec spec : specs) {
      String value = arguments.get(spec.name());
      if (value == null || value.isEmpty()) {
        continue;
      }
      String dependsOn = spec.dependsOn();
      String dependency =
          dependsOn == null ? null : arguments.getOrDefault(dependsOn, defaultOf(dependsOn));
      if (spec.normalize(value, dependency) == null) {
        out.add(new ArgumentsNeeded.Question(spec.toField(), spec.violation(value, dependency)));
      }
    }
    return out;
  }

  private @org.jspecify.annotations.Nullable String defaultOf(String name) {
    for (ArgumentSpec spec : specs) {
      if (spec.name().equals(name)) {
        return spec.defaultValue();
      }
    }
    return null;
  }

  /**
   * The template values for {@code arguments}.
   *
   * @throws ArgumentsNeeded -32602 naming the argument and the rule it breaks (a user may be asked
   *     to correct it)
   */
  Map<String, Object> bind(Map<String, String> arguments) {
    return bind(arguments, Set.of());
  }

  /**
   * The template values for {@code arguments}, those named in {@code verbatim} taken as they are:
   * no default, no check, a string even for a boolean argument (a client's placeholder, replaced by
   * its user's words later).
   *
   * @throws ArgumentsNeeded -32602 naming the argument and the rule it breaks (a user may be asked
   *     to correct it)
   */
  Map<String, Object> bind(Map<String, String> arguments, Set<String> verbatim) {
    Map<String, String> given = new HashMap<>();
    for (ArgumentSpec spec : specs) {
      String value = arguments.get(spec.name());
      if (value == null || (value.isEmpty() && !spec.required())) {
        value = spec.defaultValue();
      }
      if (value != null) {
        given.put(spec.name(), value);
      }
    }
    Map<String, Object> values = new HashMap<>();
    for (ArgumentSpec spec : specs) {
      String value = given.get(spec.name());
      if (value == null) {
        continue;
      }
      if (verbatim.contains(spec.name())) {
        values.put(spec.name(), value);
        continue;
      }
      String dependency = spec.dependsOn() == null ? null : given.get(spec.dependsOn());
      String normalized =
          value.isEmpty() && spec.type() == ArgType.STRING && spec.enumValues().isEmpty()
              ? value
              : spec.normalize(value, dependency);
      if (normalized == null) {
        String violation = spec.violation(value, dependency);
        throw new ArgumentsNeeded(
            "prompt '" + prompt + "': argument '" + spec.name() + "' " + violation,
            List.of(new ArgumentsNeeded.Question(spec.toField(), violation)));
      }
      values.put(
          spec.name(),
          spec.type() == ArgType.BOOLEAN ? (Object) Boolean.valueOf(normalized) : normalized);
    }
    return values;
  }
}
