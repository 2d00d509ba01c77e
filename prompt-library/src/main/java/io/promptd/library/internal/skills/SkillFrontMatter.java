package io.promptd.library.internal.skills;

import io.promptd.library.Diagnostic;
import io.promptd.library.parse.text.FrontMatter;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.PromptNames;
import io.promptd.library.parse.text.YamlNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A {@code SKILL.md}'s front matter, checked against the Agent Skills format: {@code name} (1-64 of
 * a-z, 0-9 and {@code -}, no {@code -} at either end nor twice in a row, equal to the folder's
 * name), {@code description} (1-1024 characters), and, when present, {@code compatibility} (at most
 * 500 characters), {@code metadata} (strings to strings) and {@code license} (a string). Every
 * problem found is reported at its line; other keys pass through.
 */
final class SkillFrontMatter {
  static final int MAX_NAME = 64;
  static final int MAX_DESCRIPTION = 1024;
  static final int MAX_COMPATIBILITY = 500;

  /** What a skill name may hold, as error messages say it. */
  static final String NAME_CHARACTERS =
      "letters and digits of any script, lower-case where the script has case, and '-'";

  /**
   * A {@code SKILL.md} read.
   *
   * @param name its name
   * @param description its description
   * @param text the front matter as written
   * @param json the front matter as JSON values, in the order written
   * @param body the text after the front matter
   */
  record Parsed(
      String name,
      String description,
      String text,
      Map<String, @Nullable Object> json,
      String body) {}

  private SkillFrontMatter() {}

  /**
   * Reads {@code text}, the {@code SKILL.md} at {@code file}, whose folder is named {@code folder};
   * adds its problems to {@code problems}.
   *
   * @return what it holds, or null when it has an error
   */
  static @Nullable Parsed read(Path file, String text, String folder, List<Diagnostic> problems) {
    int before = problems.size();
    if (!text.startsWith("---\n")
        && !text.startsWith("---\r\n")
        && !text.strip().equals("---")) {
      problems.add(
          Diagnostic.error(file, 1, "SKILL.md must begin with YAML front matter (a '---' line)"));
      return null;
    }
    FrontMatter fm;
    try {
      fm = FrontMatter.parse(text);
    } catch (ParseException e) {
      problems.add(Diagnostic.error(file, e.line(), e.getMessage()));
      return null;
    }
    YamlNode.Mapping yaml = fm.yaml();
    String name = string(file, yaml, "name", problems);
    if (name != null) {
      name = PromptNames.nfc(name);
      checkName(file, lineOf(yaml, "name"), name, folder, problems);
    }
    String description = string(file, yaml, "description", problems);
    if (description != null && (description.isEmpty() || description.length() > MAX_DESCRIPTION)) {
      problems.add(Diagnostic.error(
          file,
          lineOf(yaml, "description"),
          "'description' must be a string of 1 to " + MAX_DESCRIPTION + " characters"));
    }
    YamlNode compatibility = yaml.get("compatibility");
    if (compatibility != null
        && !(compatibility instanceof YamlNode.Scalar s
            && s.kind() == YamlNode.Kind.STRING
            && s.text().length() <= MAX_COMPATIBILITY)) {
      problems.add(Diagnostic.error(
          file,
          compatibility.line(),
          "'compatibility' must be a string of at most " + MAX_COMPATIBILITY + " characters"));
    }
    YamlNode license = yaml.get("license");
    if (license != null
        && !(license instanceof YamlNode.Scalar s && s.kind() == YamlNode.Kind.STRING)) {
      problems.add(Diagnostic.error(file, license.line(), "'license' must be a string"));
    }
    checkMetadata(file, yaml.get("metadata"), problems);
    if (name == null || description == null || problems.size() > before) {
      return null;
    }
    return new Parsed(name, description, verbatim(text, fm.bodyLine()), json(yaml), fm.body());
  }

  /** The value of {@code key} when it is a string; else null, with the problem added. */
  private static @Nullable String string(
      Path file, YamlNode.Mapping yaml, String key, List<Diagnostic> problems) {
    YamlNode node = yaml.get(key);
    if (node == null) {
      problems.add(Diagnostic.error(file, 1, "SKILL.md front matter needs '" + key + "'"));
      return null;
    }
    if (node instanceof YamlNode.Scalar s && s.kind() != YamlNode.Kind.NULL) {
      // A name or description that YAML reads as a number or boolean is still text as written.
      return s.text();
    }
    if (key.equals("description") && node instanceof YamlNode.Scalar) {
      return "";
    }
    problems.add(Diagnostic.error(file, node.line(), "'" + key + "' must be a string"));
    return null;
  }

  private static int lineOf(YamlNode.Mapping yaml, String key) {
    YamlNode node = yaml.get(key);
    return node == null ? 1 : node.line();
  }

  private static void checkName(
      Path file, int line, String name, String folder, List<Diagnostic> problems) {
    String problem = null;
    if (name.isEmpty() || name.codePointCount(0, name.length()) > MAX_NAME) {
      problem = "must be 1 to " + MAX_NAME + " characters";
    } else if (!allowed(name)) {
      String suggested = suggestion(name);
      problem = "may hold only " + NAME_CHARACTERS
          + (suggested.isEmpty() || suggested.equals(name) ? "" : ", e.g. '" + suggested + "'");
    } else if (name.startsWith("-") || name.endsWith("-")) {
      problem = "must not start or end with '-'";
    } else if (name.contains("--")) {
      problem = "must not hold '--'";
    } else if (!name.equals(PromptNames.nfc(folder))) {
      problem = "must equal its folder's name '" + folder + "'";
    }
    if (problem != null) {
      problems.add(Diagnostic.error(file, line, "skill name '" + name + "' " + problem));
    }
  }

  /** Whether every character of {@code name} is a letter or digit, lower-case if cased, or '-'. */
  private static boolean allowed(String name) {
    return name.codePoints().allMatch(c -> c == '-' || (Character.isLetterOrDigit(c) && !cased(c)))
        && name.equals(name.toLowerCase(Locale.ROOT));
  }

  /** Whether {@code c} is an upper- or title-case letter, which a skill name may not hold. */
  private static boolean cased(int c) {
    return Character.isUpperCase(c) || Character.isTitleCase(c);
  }

  /**
   * A name of the allowed characters that {@code name} suggests: lower-cased, every run of other
   * characters a single '-', none at either end; empty when nothing is left.
   */
  static String suggestion(String name) {
    return name.toLowerCase(Locale.ROOT)
        .replaceAll("[^\\p{L}\\p{Nd}]+", "-")
        .replaceAll("^-+|-+$", "");
  }

  private static void checkMetadata(Path file, @Nullable YamlNode node, List<Diagnostic> problems) {
    if (node == null) {
      return;
    }
    if (!(node instanceof YamlNode.Mapping map)) {
      problems.add(
          Diagnostic.error(file, node.line(), "'metadata' must be a map of strings to strings"));
      return;
    }
    map.entries().forEach((key, value) -> {
      if (!(value instanceof YamlNode.Scalar s && s.kind() != YamlNode.Kind.NULL)) {
        problems.add(Diagnostic.error(
            file, value.line(), "'metadata' values must be strings: '" + key + "' is not"));
      }
    });
  }

  /**
   * The front matter's lines as written: from line 2 up to the closing fence, which is the line
   * before the body.
   */
  private static String verbatim(String text, int bodyLine) {
    int start = text.indexOf('\n') + 1;
    int at = start;
    for (int line = 2; line < bodyLine - 1; line++) {
      at = text.indexOf('\n', at) + 1;
    }
    return text.substring(start, at);
  }

  /** {@code yaml} as JSON values: scalars by YAML's core schema, mappings in the order written. */
  static Map<String, @Nullable Object> json(YamlNode.Mapping yaml) {
    Map<String, @Nullable Object> out = new LinkedHashMap<>();
    yaml.entries().forEach((key, value) -> out.put(key, value(value)));
    return Collections.unmodifiableMap(out);
  }

  private static @Nullable Object value(YamlNode node) {
    return switch (node) {
      case YamlNode.Mapping m -> json(m);
      case YamlNode.Sequence s -> {
        List<@Nullable Object> items = new ArrayList<>();
        s.items().forEach(i -> items.add(value(i)));
        yield Collections.unmodifiableList(items);
      }
      case YamlNode.Scalar s -> scalar(s);
    };
  }

  private static @Nullable Object scalar(YamlNode.Scalar s) {
    try {
      return switch (s.kind()) {
        case STRING -> s.text();
        case INT -> Long.parseLong(s.text());
        case FLOAT -> Double.parseDouble(s.text());
        case BOOL -> Boolean.parseBoolean(s.text().toLowerCase(Locale.ROOT));
        case NULL -> null;
      };
    } catch (NumberFormatException e) {
      // 0x1F, 1_000, .inf and the like: JSON has no form for them that keeps what was written.
      return s.text();
    }
  }
}
