package io.promptd.library.parse;

import io.promptd.library.parse.text.Fields;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.PromptNames;
import io.promptd.library.parse.text.YamlNode;
import io.promptd.library.parse.text.YamlNode.Mapping;
import io.promptd.library.parse.text.YamlNode.Scalar;
import io.promptd.library.parse.text.YamlNode.Sequence;
import io.promptd.mcp.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.jspecify.annotations.Nullable;

/** Reads the {@code arguments} list of a {@code *.prompt.md} file. */
public final class ArgumentReader {
  private static final Set<String> KEYS = Set.of(
      "name",
      "title",
      "description",
      "required",
      "default",
      "type",
      "enum",
      "enumTitles",
      "pattern",
      "examples",
      "dependsOn",
      "formFirst",
      "confirm");

  private ArgumentReader() {}

  /**
   * What the {@code arguments} list declares.
   *
   * @param specs the declarations that are valid, in order, names unique
   * @param failed the names of the declarations that are not (as far as a name could be read)
   * @param complete false when the list itself could not be read, so that any name may have been
   *     meant
   */
  public record Declared(List<ArgumentSpec> specs, Set<String> failed, boolean complete) {
    public Declared {
      specs = List.copyOf(specs);
      failed = Set.copyOf(failed);
    }
  }

  /**
   * The arguments under {@code arguments}; names unique, {@code dependsOn} pointing at declared
   * arguments. Each bad declaration is recorded with {@link Problems#fail} and left out, and the
   * others are still checked.
   */
  public static Declared read(Mapping frontMatter, Problems problems) {
    YamlNode node = frontMatter.get("arguments");
    if (node == null || (node instanceof Scalar s && s.kind() == YamlNode.Kind.NULL)) {
      return new Declared(List.of(), Set.of(), true);
    }
    if (!(node instanceof Sequence list)) {
      problems.fail(new ParseException(node.line(), "'arguments' must be a list"));
      return new Declared(List.of(), Set.of(), false);
    }
    List<ArgumentSpec> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Set<String> failed = new HashSet<>();
    for (YamlNode item : list.items()) {
      ArgumentSpec spec =
          problems.attempt(() -> item instanceof Scalar s ? shorthand(s) : full(item, problems));
      if (spec == null) {
        String name = nameOf(item);
        if (name != null) {
          failed.add(name);
        }
      } else if (!seen.add(spec.name())) {
        problems.fail(
            new ParseException(spec.line(), "argument '" + spec.name() + "' is declared twice"));
      } else {
        out.add(spec);
      }
    }
    for (ArgumentSpec spec : out) {
      String other = spec.dependsOn();
      if (other != null
          && (other.equals(spec.name()) || !(seen.contains(other) || failed.contains(other)))) {
        problems.fail(new ParseException(
            spec.line(),
            "argument '" + spec.name() + "': dependsOn '" + other
                + "' must name another declared argument"));
      }
    }
    checkKeyedDefaults(out, problems);
    return new Declared(out, failed, true);
  }

  /**
   * A default of an argument whose {@code enum} is keyed by another argument must be one of the
   * values listed for that argument's default (when it has one that is used): else a prompt given
   * neither cannot render. A default outside every value is reported when it is read.
   */
  private static void checkKeyedDefaults(List<ArgumentSpec> specs, Problems problems) {
    for (ArgumentSpec spec : specs) {
      String def = spec.defaultValue();
      String dependsOn = spec.dependsOn();
      if (def == null
          || dependsOn == null
          || spec.required()
          || !spec.enumValues().isKeyed()) {
        continue;
      }
      for (ArgumentSpec other : specs) {
        String key = other.defaultValue();
        if (other.name().equals(dependsOn)
            && !other.required()
            && key != null
            && spec.normalize(def, key) == null) {
          problems.fail(new ParseException(
              spec.line(),
              "argument '" + spec.name() + "': default " + spec.violation(def, key)
                  + " (the default of '" + dependsOn + "')"));
        }
      }
    }
  }

  /** The name a declaration gives, valid or not; null when it gives none that is text. */
  private static @Nullable String nameOf(YamlNode item) {
    if (item instanceof Scalar s) {
      return PromptNames.nfc(s.text());
    }
    return item instanceof Mapping m && m.get("name") instanceof Scalar s
        ? PromptNames.nfc(s.text())
        : null;
  }

  /**
   * The form settings of the arguments under {@code arguments} that set any ({@code formFirst},
   * {@code confirm}, both booleans), by argument name, as published in the prompt's {@code _meta}
   * (see {@link io.promptd.mcp.server.ArgumentForms}); a setting that is no boolean is recorded
   * with {@link Problems#fail}. Call after {@link #read}, which reports the list's shape and the
   * names.
   */
  public static Map<String, JsonObject> formSettings(Mapping frontMatter, Problems problems) {
    Map<String, JsonObject> out = new LinkedHashMap<>();
    if (!(frontMatter.get("arguments") instanceof Sequence list)) {
      return out;
    }
    for (YamlNode item : list.items()) {
      if (item instanceof Mapping m
          && m.get("name") instanceof Scalar n
          && n.kind() != YamlNode.Kind.NULL
          && (m.get("formFirst") != null || m.get("confirm") != null)) {
        JsonObject.Builder b = JsonObject.builder();
        if (m.get("formFirst") != null) {
          Boolean first = problems.attempt(() -> Fields.bool(m, "formFirst", true));
          b.put("formFirst", first == null || first);
        }
        if (m.get("confirm") != null) {
          Boolean confirm = problems.attempt(() -> Fields.bool(m, "confirm", false));
          b.put("confirm", confirm != null && confirm);
        }
        out.put(PromptNames.nfc(n.text()), b.build());
      }
    }
    return out;
  }

  /** {@code - name} declares an optional string argument. */
  private static ArgumentSpec shorthand(Scalar s) throws ParseException {
    return ArgumentSpec.simple(checkName(s.text(), s.line()), null, false, s.line());
  }

  private static ArgumentSpec full(YamlNode item, Problems problems) throws ParseException {
    if (!(item instanceof Mapping m)) {
      throw new ParseException(
          item.line(), "each argument must be a name or a mapping with 'name'");
    }
    String written = Fields.string(m, "name");
    if (written == null) {
      throw new ParseException(m.line(), "argument needs a 'name'");
    }
    String name = checkName(written, Fields.line(m, "name", m.line()));
    Fields.warnUnknown(m, KEYS, "argument '" + name + "'", problems);
    String typeId = Fields.string(m, "type");
    ArgType type = typeId == null ? ArgType.STRING : ArgType.of(typeId);
    if (type == null) {
      throw new ParseException(
          Fields.line(m, "type", m.line()),
          "argument '" + name + "': type '" + typeId
              + "' is not one of string, integer, number, boolean");
    }
    String dependsOnWritten = Fields.string(m, "dependsOn");
    String dependsOn = dependsOnWritten == null ? null : PromptNames.nfc(dependsOnWritten);
    Choices enumValues = choices(m, "enum", "argument", name, dependsOn);
    Choices examples = choices(m, "examples", "argument", name, dependsOn);
    ArgumentSpec spec = new ArgumentSpec(
        name,
        Fields.string(m, "title"),
        Fields.string(m, "description"),
        Fields.bool(m, "required", false),
        type,
        Fields.string(m, "default"),
        enumValues,
        examples,
        pattern(m, name),
        dependsOn,
        m.line(),
        enumTitles(m, name, enumValues));
    checkValues(spec, m, problems);
    return spec;
  }

  /** {@code name} in NFC, when it may name an argument. */
  private static String checkName(String name, int line) throws ParseException {
    String n = PromptNames.nfc(name);
    if (!PromptNames.isArgumentName(n)) {
      throw new ParseException(
          line,
          "argument name '" + name + "' must be 1-64 " + PromptNames.ARGUMENT_CHARACTERS
              + ", starting with a letter, digit or '_' (it is used as a template variable)");
    }
    return n;
  }

  /**
   * An {@code enum} or {@code examples} list: flat, or keyed by the value of {@code dependsOn}.
   *
   * @param kind what declares it, for messages: "argument" (prompt files) or "variable" (resource
   *     templates)
   */
  static Choices choices(
      Mapping m, String key, String kind, String name, @Nullable String dependsOn)
      throws ParseException {
    YamlNode node = m.get(key);
    if (node == null) {
      return Choices.NONE;
    }
    if (!(node instanceof Mapping keyed)) {
      return Choices.flat(Fields.strings(node, key));
    }
    if (dependsOn == null) {
      throw new ParseException(
          node.line(),
          kind + " '" + name + "': '" + key + "' is a mapping, so 'dependsOn' must name the " + kind
              + " its keys are values of");
    }
    Map<String, List<String>> byKey = new LinkedHashMap<>();
    for (String k : keyed.keys()) {
      YamlNode values = keyed.get(k);
      byKey.put(k, values == null ? List.of() : Fields.strings(values, key));
    }
    return Choices.keyed(byKey);
  }

  /**
   * {@code enumTitles}: a display name for each value of a flat {@code enum}, shown when a form
   * asks for it.
   */
  private static Map<String, String> enumTitles(Mapping m, String arg, Choices enumValues)
      throws ParseException {
    YamlNode node = m.get("enumTitles");
    if (node == null) {
      return Map.of();
    }
    if (!(node instanceof Mapping titles) || enumValues.isEmpty() || enumValues.isKeyed()) {
      throw new ParseException(
          node.line(),
          "argument '" + arg + "': 'enumTitles' maps values of a flat 'enum' to"
              + " the names a form shows, e.g. {fr: French}");
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String value : titles.keys()) {
      if (!enumValues.all().contains(value)) {
        throw new ParseException(
            node.line(),
            "argument '" + arg + "': enumTitles names '" + value
                + "', which is not one of its enum values");
      }
      String title = Fields.string(titles, value);
      if (title == null) {
        throw new ParseException(
            node.line(), "argument '" + arg + "': the title of '" + value + "' must be text");
      }
      out.put(value, title);
    }
    return out;
  }

  private static @Nullable Pattern pattern(Mapping m, String arg) throws ParseException {
    String regex = Fields.string(m, "pattern");
    if (regex == null) {
      return null;
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new ParseException(
          Fields.line(m, "pattern", m.line()),
          "argument '" + arg + "': invalid pattern: " + e.getDescription());
    }
  }

  /** Enum values must have the declared type; a default must pass every rule. */
  private static void checkValues(ArgumentSpec spec, Mapping m, Problems problems)
      throws ParseException {
    for (String v : spec.enumValues().all()) {
      if (!spec.type().accepts(v)) {
        throw new ParseException(
            Fields.line(m, "enum", m.line()),
            "argument '" + spec.name() + "': enum value '" + v + "' is not of type "
                + spec.type().id());
      }
    }
    String def = spec.defaultValue();
    if (def != null && spec.normalize(def, null) == null) {
      throw new ParseException(
          Fields.line(m, "default", m.line()),
          "argument '" + spec.name() + "': default " + spec.violation(def, null));
    }
    if (def != null && spec.required()) {
      problems.warning(
          Fields.line(m, "required", m.line()),
          "argument '" + spec.name() + "' is required, so its default is never used");
    }
  }
}
