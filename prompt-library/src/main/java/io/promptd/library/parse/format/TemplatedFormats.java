package io.promptd.library.parse.format;

import io.promptd.library.parse.text.Fields;
import io.promptd.library.parse.text.FrontMatter;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.YamlNode;
import io.promptd.library.parse.text.YamlNode.Mapping;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Dotprompt ({@code *.prompt}: YAML front matter with a Picoschema {@code input.schema}, a
 * Handlebars body with {@code {{role "…"}}}) and Prompty ({@code *.prompty}: YAML front matter with
 * {@code inputs} or {@code sample}, a Jinja body with
 * {@code system:}/{@code user:}/{@code assistant:} lines), read by translating them into a native
 * {@code NAME.prompt.md} text — front matter with the arguments, a Mustache body with {@code :::}
 * role markers — which the native format then parses. The part of each template language that maps
 * onto Mustache is translated (variables, {@code if}/{@code else}/{@code unless}, {@code each},
 * comments); anything else (helpers, filters, loops over objects, partials, media) is a
 * {@code file:line} error naming it. {@code promptd import} writes the same text.
 *
 * <p>The body keeps its line numbers where role markers sit on lines of their own: the generated
 * front matter is padded to the original's length, so a problem in the body is reported at its line
 * in the original file.
 */
public final class TemplatedFormats {
  private static final Pattern HBS_TAG =
      Pattern.compile("\\{\\{\\{?(~?)(.*?)(~?)}?}}", Pattern.DOTALL);
  private static final Pattern JINJA =
      Pattern.compile("\\{\\{(.*?)}}|\\{%-?(.*?)-?%}|\\{#.*?#}", Pattern.DOTALL);
  private static final Pattern PATH =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*");
  private static final Pattern PICO_KEY =
      Pattern.compile("([A-Za-z_][A-Za-z0-9_-]*)(\\?)?(?:\\(([a-z]+)(?:,\\s*(.*))?\\))?");
  private static final Pattern WORDS = Pattern.compile("\\s+");
  private static final Pattern PROMPTY_ROLE =
      Pattern.compile("^\\s*(system|user|assistant)\\s*:\\s*$", Pattern.CASE_INSENSITIVE);

  private TemplatedFormats() {}

  /** The native text of a Dotprompt file. */
  public static String dotprompt(String text, Problems problems) throws ParseException {
    FrontMatter fm = FrontMatter.parse(text);
    Mapping yaml = fm.yaml();
    List<Map<String, Object>> arguments = new ArrayList<>();
    Mapping input = Fields.mapping(yaml, "input");
    if (input != null) {
      Mapping defaults = Fields.mapping(input, "default");
      YamlNode schema = input.get("schema");
      if (schema instanceof Mapping m) {
        arguments = m.get("properties") instanceof Mapping
            ? jsonSchema(m, defaults)
            : picoschema(m, defaults);
      } else if (schema != null) {
        throw new ParseException(
            schema.line(), "input.schema must be a Picoschema or JSON Schema object");
      }
    }
    for (String key : yaml.keys()) {
      if (!Known.DOTPROMPT_KEYS.contains(key)) {
        problems.warning(
            Fields.line(yaml, key, 1), "front matter key '" + key + "' is not read by promptd");
      }
    }
    String body = handlebars(fm.body(), fm.bodyLine());
    return assemble(text, fm, Fields.string(yaml, "description"), arguments, body);
  }

  /** The native text of a Prompty file. */
  public static String prompty(String text, Problems problems) throws ParseException {
    FrontMatter fm = FrontMatter.parse(text);
    Mapping yaml = fm.yaml();
    List<Map<String, Object>> arguments = new ArrayList<>();
    Mapping inputs = Fields.mapping(yaml, "inputs");
    Mapping sample = Fields.mapping(yaml, "sample");
    if (inputs != null) {
      for (Map.Entry<String, YamlNode> e : inputs.entries().entrySet()) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("name", e.getKey());
        if (e.getValue() instanceof Mapping spec) {
          type(a, Fields.string(spec, "type"), e.getKey(), spec.line());
          put(a, "description", Fields.string(spec, "description"));
          put(a, "default", Fields.string(spec, "default"));
          a.put("required", Fields.bool(spec, "required", Fields.string(spec, "default") == null));
        } else if (e.getValue() instanceof YamlNode.Scalar s) {
          if (s.kind() == YamlNode.Kind.STRING && TYPES.containsKey(s.text())) {
            type(a, s.text(), e.getKey(), s.line());
          } else {
            a.put("default", s.text());
          }
          a.putIfAbsent("required", !a.containsKey("default"));
        } else {
          throw new ParseException(
              e.getValue().line(),
              "input '" + e.getKey() + "' is a list; MCP prompt arguments" + " are strings");
        }
        arguments.add(a);
      }
    } else if (sample != null) {
      for (Map.Entry<String, YamlNode> e : sample.entries().entrySet()) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("name", e.getKey());
        a.put(
            "description", "an input of the prompt (its sample: " + sampleText(e.getValue()) + ")");
        a.put("required", true);
        arguments.add(a);
      }
    }
    for (String key : yaml.keys()) {
      if (!Known.PROMPTY_KEYS.contains(key)) {
        problems.warning(
            Fields.line(yaml, key, 1), "front matter key '" + key + "' is not read by promptd");
      }
    }
    String body = jinja(fm.body(), fm.bodyLine());
    return assemble(text, fm, Fields.string(yaml, "description"), arguments, body);
  }

  /** Keys each format defines that promptd knows of (read, or known to matter only to the tool). */
  private static final class Known {
    static final Set<String> DOTPROMPT_KEYS = Set.of(
        "name",
        "variant",
        "description",
        "model",
        "config",
        "input",
        "output",
        "tools",
        "metadata",
        "ext");
    static final Set<String> PROMPTY_KEYS = Set.of(
        "name",
        "description",
        "authors",
        "version",
        "tags",
        "model",
        "sample",
        "inputs",
        "outputs",
        "template",
        "base");
  }

  private static String sampleText(YamlNode node) {
    String s = node instanceof YamlNode.Scalar sc ? sc.text() : "structured";
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  private static final Map<String, String> TYPES = Map.of(
      "string", "string", "number", "number", "integer", "integer", "boolean", "boolean", "any",
      "string");

  private static void type(
      Map<String, Object> argument, @Nullable String type, String name, int line)
      throws ParseException {
    if (type == null) {
      return;
    }
    String mapped = TYPES.get(type.strip().toLowerCase(Locale.ROOT));
    if (mapped == null) {
      throw new ParseException(
          line,
          "input '" + name + "' is of type '" + type + "'; MCP prompt arguments are"
              + " strings, numbers, integers or booleans");
    }
    if (!mapped.equals("string")) {
      argument.put("type", mapped);
    }
  }

  private static void put(Map<String, Object> argument, String key, @Nullable Object value) {
    if (value != null) {
      argument.put(key, value);
    }
  }

  /**
   * Picoschema: {@code name: type, description}, {@code name?: …} optional, {@code name(enum,
   * description): [a, b]}.
   */
  private static List<Map<String, Object>> picoschema(Mapping schema, @Nullable Mapping defaults)
      throws ParseException {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<String, YamlNode> e : schema.entries().entrySet()) {
      int line = e.getValue().line();
      Matcher m = PICO_KEY.matcher(e.getKey().strip());
      if (!m.matches()) {
        throw new ParseException(
            line, "input.schema: '" + e.getKey() + "' is not a Picoschema field");
      }
      String name = m.group(1);
      Map<String, Object> a = new LinkedHashMap<>();
      a.put("name", name);
      String paren = m.group(3);
      if (paren != null && !paren.equals("enum")) {
        throw new ParseException(
            line, "input '" + name + "' is an " + paren + "; MCP prompt arguments are strings");
      }
      if (paren != null) {
        if (!(e.getValue() instanceof YamlNode.Sequence values)) {
          throw new ParseException(line, "input '" + name + "(enum)' needs a list of values");
        }
        List<String> choices = new ArrayList<>();
        for (YamlNode v : values.items()) {
          if (v instanceof YamlNode.Scalar s && s.kind() != YamlNode.Kind.NULL) {
            choices.add(s.text());
          }
        }
        a.put("enum", choices);
        put(a, "description", m.group(4));
      } else if (e.getValue() instanceof YamlNode.Scalar s) {
        String text = s.text();
        int comma = text.indexOf(',');
        type(a, comma < 0 ? text : text.substring(0, comma), name, line);
        put(a, "description", comma < 0 ? null : text.substring(comma + 1).strip());
      } else {
        throw new ParseException(
            line, "input '" + name + "' is an object; MCP prompt arguments are strings");
      }
      a.put("required", m.group(2) == null);
      defaultOf(a, defaults, name);
      out.add(a);
    }
    return out;
  }

  /**
   * A JSON Schema object: {@code properties} with {@code type}, {@code description}, {@code enum};
   * {@code required}.
   */
  private static List<Map<String, Object>> jsonSchema(Mapping schema, @Nullable Mapping defaults)
      throws ParseException {
    List<String> required = Fields.strings(schema, "required");
    List<Map<String, Object>> out = new ArrayList<>();
    Mapping properties = Fields.mapping(schema, "properties");
    if (properties == null) {
      return out;
    }
    for (Map.Entry<String, YamlNode> e : properties.entries().entrySet()) {
      if (!(e.getValue() instanceof Mapping property)) {
        throw new ParseException(
            e.getValue().line(), "property '" + e.getKey() + "' must be an object");
      }
      Map<String, Object> a = new LinkedHashMap<>();
      a.put("name", e.getKey());
      type(a, Fields.string(property, "type"), e.getKey(), property.line());
      put(a, "description", Fields.string(property, "description"));
      List<String> choices = Fields.strings(property, "enum");
      if (!choices.isEmpty()) {
        a.put("enum", choices);
      }
      put(a, "default", Fields.string(property, "default"));
      a.put("required", required.contains(e.getKey()));
      defaultOf(a, defaults, e.getKey());
      out.add(a);
    }
    return out;
  }

  private static void defaultOf(
      Map<String, Object> argument, @Nullable Mapping defaults, String name) throws ParseException {
    String value = defaults == null ? null : Fields.string(defaults, name);
    if (value != null) {
      argument.put("default", value);
      argument.put("required", false);
    }
  }

  /**
   * Handlebars to Mustache with role markers; anything that does not map is an error at its line.
   */
  static String handlebars(String body, int bodyLine) throws ParseException {
    StringBuilder out = new StringBuilder();
    Deque<String[]> blocks = new ArrayDeque<>(); // {helper, variable}
    Matcher m = HBS_TAG.matcher(body);
    int last = 0;
    while (m.find()) {
      out.append(body, last, m.start());
      last = m.end();
      int line = ForeignFormats.lineAt(body, m.start(), bodyLine);
      String inside = m.group(2).strip();
      if (inside.startsWith("!")) {
        continue; // a comment
      }
      if (inside.startsWith("role ")) {
        String role = unquote(inside.substring(5).strip(), line);
        String marker = switch (role) {
          case "user" -> "user";
          case "model", "assistant" -> "assistant";
          case "system" -> "system";
          default ->
            throw new ParseException(line, "role '" + role + "' is not user, model or system");
        };
        roleMarker(out, marker);
        last = skipLineEnd(body, last);
        continue;
      }
      String[] words = WORDS.split(inside, -1);
      String head = words[0];
      if (head.equals("#if") || head.equals("#unless") || head.equals("#each")) {
        String variable = variable(words, line, inside);
        blocks.push(new String[] {head.substring(1), variable});
        out.append(head.equals("#unless") ? "{{^" : "{{#").append(variable).append("}}");
      } else if (head.equals("else") && words.length == 1) {
        String[] open = blocks.peek();
        if (open == null || open[0].equals("each")) {
          throw new ParseException(line, "{{else}} outside an {{#if}} or {{#unless}} block");
        }
        out.append("{{/")
            .append(open[1])
            .append("}}")
            .append(open[0].equals("if") ? "{{^" : "{{#")
            .append(open[1])
            .append("}}");
      } else if (head.equals("/if") || head.equals("/unless") || head.equals("/each")) {
        String[] open = blocks.poll();
        if (open == null || !open[0].equals(head.substring(1))) {
          throw new ParseException(line, "{{" + head + "}} does not close the block that is open");
        }
        out.append("{{/").append(open[1]).append("}}");
      } else if (words.length == 1 && (head.equals("this") || head.equals("."))) {
        out.append("{{.}}");
      } else if (words.length == 1 && PATH.matcher(head).matches()) {
        out.append("{{").append(head).append("}}");
      } else {
        throw new ParseException(
            line,
            "{{" + inside + "}} is a Handlebars helper or expression promptd cannot render"
                + " (variables, role, if/else/unless and each are read)");
      }
    }
    if (!blocks.isEmpty()) {
      throw new ParseException(
          bodyLine, "{{#" + blocks.peek()[0] + " " + blocks.peek()[1] + "}} is never closed");
    }
    out.append(body.substring(last));
    return out.toString();
  }

  /** Jinja to Mustache with role markers for Prompty's {@code role:} lines. */
  static String jinja(String body, int bodyLine) throws ParseException {
    StringBuilder lines = new StringBuilder();
    for (String line : body.split("\n", -1)) {
      Matcher role = PROMPTY_ROLE.matcher(line);
      lines
          .append(role.matches() ? "::: " + role.group(1).toLowerCase(Locale.ROOT) : line)
          .append('\n');
    }
    String text = lines.substring(0, lines.length() - 1);
    StringBuilder out = new StringBuilder();
    Deque<String> blocks = new ArrayDeque<>();
    Matcher m = JINJA.matcher(text);
    int last = 0;
    while (m.find()) {
      out.append(text, last, m.start());
      last = m.end();
      int line = ForeignFormats.lineAt(text, m.start(), bodyLine);
      if (m.group(1) != null) {
        String expression = m.group(1).strip();
        if (!PATH.matcher(expression).matches()) {
          throw new ParseException(
              line,
              "{{ " + expression + " }} is a Jinja expression promptd cannot render"
                  + " (variables, if/else and comments are read)");
        }
        out.append("{{").append(expression).append("}}");
      } else if (m.group(2) != null) {
        String statement = m.group(2).strip();
        String[] words = WORDS.split(statement, -1);
        switch (words[0]) {
          case "if" -> {
            if (words.length != 2 || !PATH.matcher(words[1]).matches()) {
              throw new ParseException(
                  line, "{% " + m.group(2).strip() + " %}: only {% if variable %} is read");
            }
            blocks.push(words[1]);
            out.append("{{#").append(words[1]).append("}}");
          }
          case "else" -> {
            String open = blocks.peek();
            if (open == null) {
              throw new ParseException(line, "{% else %} outside an {% if %} block");
            }
            out.append("{{/").append(open).append("}}{{^").append(open).append("}}");
          }
          case "endif" -> {
            String open = blocks.poll();
            if (open == null) {
              throw new ParseException(line, "{% endif %} without an {% if %}");
            }
            out.append("{{/").append(open).append("}}");
          }
          default ->
            throw new ParseException(
                line,
                "{% " + m.group(2).strip() + " %} is a Jinja statement promptd"
                    + " cannot render (if/else/endif are read)");
        }
      }
      // {# comments #} are dropped
    }
    if (!blocks.isEmpty()) {
      throw new ParseException(bodyLine, "{% if " + blocks.peek() + " %} is never closed");
    }
    out.append(text.substring(last));
    return out.toString();
  }

  private static String variable(String[] words, int line, String inside) throws ParseException {
    if (words.length != 2 || !PATH.matcher(words[1]).matches()) {
      throw new ParseException(line, "{{" + inside + "}}: only a variable can follow " + words[0]);
    }
    return words[1];
  }

  private static String unquote(String s, int line) throws ParseException {
    if (s.length() >= 2
        && (s.charAt(0) == '"' || s.charAt(0) == '\'')
        && s.charAt(s.length() - 1) == s.charAt(0)) {
      return s.substring(1, s.length() - 1);
    }
    throw new ParseException(line, "{{role}} needs a quoted role name, such as {{role \"user\"}}");
  }

  /**
   * A {@code ::: role} line where the tag was: on its own line when the tag was, else on a new one.
   */
  private static void roleMarker(StringBuilder out, String role) {
    boolean lineStart = out.isEmpty() || out.charAt(out.length() - 1) == '\n';
    if (!lineStart) {
      out.append('\n');
    }
    out.append("::: ").append(role).append('\n');
  }

  /**
   * After a role tag: skip the rest of its line when it is blank, so the marker takes the tag's
   * line.
   */
  private static int skipLineEnd(String body, int at) {
    int i = at;
    while (i < body.length() && (body.charAt(i) == ' ' || body.charAt(i) == '\t')) {
      i++;
    }
    return i < body.length() && body.charAt(i) == '\n' ? i + 1 : at;
  }

  /**
   * Native front matter (padded to the original's number of lines where it fits) and the translated
   * body.
   */
  private static String assemble(
      String original,
      FrontMatter fm,
      @Nullable String description,
      List<Map<String, Object>> arguments,
      String body) {
    List<String> lines = new ArrayList<>();
    lines.add("---");
    if (description != null) {
      lines.add("description: " + JsonCodec.write(new JsonString(description)));
    }
    if (!arguments.isEmpty()) {
      StringBuilder list = new StringBuilder("arguments: [");
      for (int i = 0; i < arguments.size(); i++) {
        list.append(i == 0 ? "" : ", ").append(json(arguments.get(i)));
      }
      lines.add(list.append(']').toString());
    }
    int originalLines = fm.bodyLine() - 1; // the front matter's lines, fences included
    while (lines.size() + 1 < originalLines) {
      lines.add(
          "# (translated from " + (original.startsWith("---") ? "front matter" : "the file") + ")");
    }
    lines.add("---");
    return String.join("\n", lines) + "\n" + body;
  }

  private static String json(Map<String, Object> argument) {
    JsonObject.Builder b = JsonObject.builder();
    for (Map.Entry<String, Object> e : argument.entrySet()) {
      switch (e.getValue()) {
        case Boolean bool -> b.put(e.getKey(), bool);
        case List<?> list ->
          b.put(
              e.getKey(), JsonArray.ofStrings(list.stream().map(String::valueOf).toList()));
        default -> b.put(e.getKey(), String.valueOf(e.getValue()));
      }
    }
    return JsonCodec.write(b.build());
  }
}
