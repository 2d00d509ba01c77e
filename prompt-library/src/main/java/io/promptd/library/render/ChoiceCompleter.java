package io.promptd.library.render;

import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.Choices;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.server.ArgumentCompleter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Completes argument values from their {@code enum} (else {@code examples}) lists: values starting
 * with what was typed, ignoring case, in declared order. An argument with {@code dependsOn} draws
 * from the list keyed by the other argument's value in {@code context.arguments}, or from all lists
 * while that value is unknown.
 */
final class ChoiceCompleter implements ArgumentCompleter {
  private final Map<String, ArgumentSpec> specs;

  ChoiceCompleter(Map<String, ArgumentSpec> specs) {
    this.specs = Map.copyOf(specs);
  }

  @Override
  public Completion complete(String argument, String value, Map<String, String> context) {
    ArgumentSpec spec = specs.get(argument);
    if (spec == null) {
      return Completion.EMPTY;
    }
    String dependency = spec.dependsOn() == null ? null : context.get(spec.dependsOn());
    Set<String> candidates =
        new LinkedHashSet<>(pick(spec.enumValues(), spec.examples()).forKey(dependency));
    String prefix = value.toLowerCase(Locale.ROOT);
    List<String> matches = new ArrayList<>();
    for (String candidate : candidates) {
      if (candidate.toLowerCase(Locale.ROOT).startsWith(prefix)) {
        matches.add(candidate);
      }
    }
    return Completion.of(matches);
  }

  private static Choices pick(Choices enumValues, Choices examples) {
    return enumValues.isEmpty() ? examples : enumValues;
  }

  /** Everything it needs was read when the file was loaded: it never blocks. */
  @Override
  public boolean mayBlock() {
    return false;
  }
}
