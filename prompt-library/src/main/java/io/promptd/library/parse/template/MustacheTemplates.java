package io.promptd.library.parse.template;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.MustacheException;
import com.samskivert.mustache.Template;
import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Compiles the Mustache sections of one prompt file. Logic-less, HTML escaping off, data only from
 * maps, a missing or empty value renders as nothing. Partials ({@code {{> name}}}) are files inside
 * the root, named relative to it ({@code .md} may be left off); all are read, checked for cycles
 * and held in memory at load time, so rendering never touches the disk.
 */
public final class MustacheTemplates {
  private static final int MAX_PARTIALS = 64;
  /**
   * How deep sections ({@code {{#a}}}, {@code {{^a}}}) may nest in one file or partial. Compiling,
   * checking and rendering a template each recurse once per level, on the thread that reloads the
   * library or answers a request.
   */
  static final int MAX_SECTION_DEPTH = 64;

  private static final Pattern LINE = Pattern.compile(" @ line (\\d+)");
  private static final Set<String> SPECIAL = Set.of(".", "this", "-first", "-last", "-index");
  /**
   * Shared by every template without partials, which is most of them: a template keeps its
   * compiler, and a compiler per file would keep that file's partial maps alive too.
   */
  private static final Mustache.Compiler PLAIN = Mustache.compiler()
      .escapeHTML(false)
      .defaultValue("")
      .emptyStringIsFalse(true)
      .withCollector(MapOnlyCollector.INSTANCE);

  private final Root root;
  private final long maxBytes;
  private final Set<Path> dependencies;
  private final FileAccess files;
  private final Map<String, String> partialSources = new HashMap<>();
  private final Map<String, Template> partials = new HashMap<>();
  private Mustache.@Nullable Compiler withPartials;

  /**
   * A compiler for one file.
   *
   * @param dependencies receives every partial file looked at, so the watcher can reload on its
   *     change
   * @param files reads the partials
   */
  public MustacheTemplates(Root root, long maxBytes, Set<Path> dependencies, FileAccess files) {
    this.root = root;
    this.maxBytes = maxBytes;
    this.dependencies = dependencies;
    this.files = files;
  }

  /**
   * Compiles {@code written} (its tags in NFC), whose first line is {@code firstLine} of the file,
   * and loads its partials.
   *
   * @param variables receives the names of the values it reads (first part of dotted names) and the
   *     line of the first section that reads each
   * @param problems receives warnings about dotted names
   */
  public TextTemplate compile(
      String written, int firstLine, Map<String, Integer> variables, Problems problems)
      throws ParseException {
    String source = tagsInNfc(written);
    List<String> simple = simpleTags(source);
    if (simple != null) {
      // Only plain {{name}} tags, which Mustache always accepts: the compile waits for the first
      // render.
      for (String name : simple) {
        checkName(name, firstLine);
        VariableCollector.record(name, variables, problems, firstLine);
      }
      return simple.isEmpty() ? TextTemplate.literal(source) : new Deferred(source);
    }
    checkDepth(source, firstLine, "");
    Template plain = parse(PLAIN, source, firstLine, "");
    Template template = plain;
    if (!includes(plain).isEmpty()) {
      template = parse(withPartials(), source, firstLine, "");
      resolvePartials(template, firstLine, new ArrayList<>());
    }
    VariableCollector collector = new VariableCollector(variables, problems, firstLine);
    template.visit(collector);
    String bad = collector.badName;
    if (bad != null) {
      checkName(bad, firstLine);
    }
    Template compiled = template;
    return values -> execute(compiled, values, source);
  }

  /**
   * The names of the tags of {@code source} when every tag is a plain variable ({@code {{name}}},
   * spaces allowed around a name of letters and digits of any script, {@code _ - .}); null when any
   * tag is something else (a section, a partial, a comment, an unescaped value, a delimiter change)
   * or a tag looks malformed, which the full compile then reports.
   */
  static @Nullable List<String> simpleTags(String source) {
    List<String> names = new ArrayList<>();
    int at = source.indexOf("{{");
    while (at >= 0) {
      int i = at + 2;
      while (i < source.length() && (source.charAt(i) == ' ' || source.charAt(i) == '\t')) {
        i++;
      }
      int start = i;
      while (i < source.length() && isNameChar(source.charAt(i))) {
        i++;
      }
      int end = i;
      while (i < source.length() && (source.charAt(i) == ' ' || source.charAt(i) == '\t')) {
        i++;
      }
      if (end == start || !source.startsWith("}}", i)) {
        return null;
      }
      names.add(source.substring(start, end));
      at = source.indexOf("{{", i + 2);
    }
    return names;
  }

  /**
   * {@code source} with the text inside each {@code {{...}}} tag in NFC, as argument names are, so
   * a template typed in NFD still reads the values of its arguments; the text between tags is left
   * as written. A source of ASCII only, or already in NFC, is returned as it is.
   */
  static String tagsInNfc(String source) {
    if (ascii(source) || Normalizer.isNormalized(source, Normalizer.Form.NFC)) {
      return source;
    }
    StringBuilder out = new StringBuilder(source.length());
    int at = 0;
    int open = source.indexOf("{{");
    while (open >= 0) {
      int close = source.indexOf("}}", open + 2);
      if (close < 0) {
        break;
      }
      out.append(source, at, open + 2)
          .append(Normalizer.normalize(source.substring(open + 2, close), Normalizer.Form.NFC));
      at = close;
      open = source.indexOf("{{", close + 2);
    }
    return out.append(source, at, source.length()).toString();
  }

  private static boolean ascii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  private static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '-'
        || c == '.'
        || (c >= 0x80 && !Character.isSurrogate(c) && letterOrMark(c));
  }

  /** A letter or digit of any script, or a mark that combines with one. */
  private static boolean letterOrMark(char c) {
    int type = Character.getType(c);
    return Character.isLetterOrDigit(c)
        || type == Character.NON_SPACING_MARK
        || type == Character.COMBINING_SPACING_MARK;
  }

  /**
   * A template of plain variables only, compiled the first time it is rendered (at most twice if
   * raced).
   */
  private static final class Deferred implements TextTemplate {
    private final String source;
    private volatile @Nullable Template compiled;

    Deferred(String source) {
      this.source = source;
    }

    @Override
    public String render(Map<String, Object> values) {
      Template t = compiled;
      if (t == null) {
        t = PLAIN.compile(source);
        compiled = t;
      }
      return execute(t, values, source);
    }
  }

  /**
   * Renders {@code template} into a buffer sized for its source and its values' text at the top
   * level, instead of one that starts small and doubles as the text grows (a visible share of what
   * a request allocates).
   */
  private static String execute(Template template, Map<String, Object> values, String source) {
    long size = source.length();
    for (Object v : values.values()) {
      if (v instanceof CharSequence text) {
        size += text.length();
      }
    }
    StringWriter out = new StringWriter((int) Math.min(size + 16, 1 << 20));
    template.execute(values, out);
    return out.toString();
  }

  private Mustache.Compiler withPartials() {
    Mustache.Compiler compiler = withPartials;
    if (compiler == null) {
      compiler = PLAIN.withLoader(this::loadResolved);
      withPartials = compiler;
    }
    return compiler;
  }

  private static Template parse(
      Mustache.Compiler compiler, String source, int firstLine, String partialName)
      throws ParseException {
    try {
      return compiler.compile(source);
    } catch (MustacheException e) {
      String message = String.valueOf(e.getMessage());
      Matcher m = LINE.matcher(message);
      int line = m.find() ? firstLine + Integer.parseInt(m.group(1)) - 1 : firstLine;
      String where = partialName.isEmpty() ? "" : " in partial '" + partialName + "'";
      throw new ParseException(
          partialName.isEmpty() ? line : firstLine,
          "template error" + where + ": " + LINE.matcher(message).replaceAll(""));
    } catch (RuntimeException e) {
      // The compiler fails on some malformed tags with an index error of its own (an empty "{{}}",
      // found by
      // PromptFileFuzzTest): still the template's fault, said without the compiler's internals.
      String where = partialName.isEmpty() ? "" : " in partial '" + partialName + "'";
      throw new ParseException(
          firstLine,
          "template error" + where + ": a tag cannot be read (an empty '{{}}', or a"
              + " tag that does not close?)");
    }
  }

  /**
   * Refuses sections nested deeper than {@link #MAX_SECTION_DEPTH}, before the compiler recurses
   * into them. Reads the tags as Mustache does, delimiter changes ({@code {{=<% %>=}}}) included;
   * what is malformed is left to the compiler.
   */
  static void checkDepth(String source, int firstLine, String partialName) throws ParseException {
    String open = "{{";
    String close = "}}";
    int depth = 0;
    int at = source.indexOf(open);
    while (at >= 0) {
      int start = at + open.length();
      int end = source.indexOf(close, start);
      if (end < 0) {
        return;
      }
      String tag = source.substring(start, end).strip();
      int after = end + close.length();
      char kind = tag.isEmpty() ? ' ' : tag.charAt(0);
      if (kind == '#' || kind == '^' || kind == '$' || kind == '<') {
        if (++depth > MAX_SECTION_DEPTH) {
          int line = partialName.isEmpty() ? firstLine + lineOf(source, at) - 1 : firstLine;
          String where = partialName.isEmpty() ? "" : " in partial '" + partialName + "'";
          throw new ParseException(
              line,
              "template error" + where + ": sections are nested more than " + MAX_SECTION_DEPTH
                  + " levels deep");
        }
      } else if (kind == '/') {
        depth = Math.max(0, depth - 1);
      } else if (kind == '=' && tag.length() > 1 && tag.endsWith("=")) {
        String[] delimiters = tag.substring(1, tag.length() - 1).strip().split("\\s+", -1);
        if (delimiters.length == 2 && !delimiters[0].isEmpty() && !delimiters[1].isEmpty()) {
          open = delimiters[0];
          close = delimiters[1];
        }
      } else if (kind == '{' && source.startsWith("}", after)) {
        after++; // a triple mustache closes with one more brace
      }
      at = source.indexOf(open, after);
    }
  }

  private static int lineOf(String source, int offset) {
    int line = 1;
    for (int i = source.indexOf('\n'); i >= 0 && i < offset; i = source.indexOf('\n', i + 1)) {
      line++;
    }
    return line;
  }

  /** Depth-first over includes, so a partial that includes itself, directly or not, is caught. */
  private void resolvePartials(Template template, int line, List<String> stack)
      throws ParseException {
    for (String name : includes(template)) {
      if (stack.contains(name)) {
        throw new ParseException(
            line,
            "partial '" + name + "' includes itself: " + String.join(" > ", stack) + " > " + name);
      }
      Template partial = partials.get(name);
      if (partial == null) {
        if (partials.size() >= MAX_PARTIALS) {
          throw new ParseException(line, "more than " + MAX_PARTIALS + " partials");
        }
        String source = tagsInNfc(
            SafeFiles.decodeUtf8(files.read(root, locate(name, line), maxBytes, line, "partial")));
        partialSources.put(name, source);
        checkDepth(source, line, name);
        partial = parse(withPartials(), source, line, name);
        partials.put(name, partial);
      }
      stack.add(name);
      resolvePartials(partial, line, stack);
      stack.removeLast();
    }
  }

  private Path locate(String name, int line) throws ParseException {
    Path base = root.path().resolve("_");
    Path exact = SafeFiles.resolve(root, base, name, line);
    dependencies.add(exact);
    if (files.exists(exact) || name.contains(".")) {
      return exact;
    }
    Path withExtension = SafeFiles.resolve(root, base, name + ".md", line);
    dependencies.add(withExtension);
    return withExtension;
  }

  /**
   * Called by jmustache when rendering or visiting reaches a partial; everything was read at load
   * time.
   */
  private StringReader loadResolved(String name) {
    String source = partialSources.get(name);
    if (source == null) {
      throw new MustacheException("partial '" + name + "' was not loaded");
    }
    return new StringReader(source);
  }

  private static Set<String> includes(Template template) {
    Set<String> names = new LinkedHashSet<>();
    template.visit(new Mustache.Visitor() {
      @Override
      public void visitText(String text) {}

      @Override
      public void visitVariable(String name) {}

      @Override
      public boolean visitInclude(String name) {
        names.add(name);
        return false;
      }

      @Override
      public boolean visitParent(String name) {
        names.add(name);
        return false;
      }

      @Override
      public boolean visitBlock(String name) {
        return true;
      }

      @Override
      public boolean visitSection(String name) {
        return true;
      }

      @Override
      public boolean visitInvertedSection(String name) {
        return true;
      }
    });
    return names;
  }

  /**
   * Refuses a dotted name with an empty part ({@code {{...}}}, {@code {{a..b}}}, {@code {{.a}}}):
   * Mustache compiles it and then fails on it at every render with an index error (found by
   * PromptFileFuzzTest).
   */
  private static void checkName(String name, int line) throws ParseException {
    if (!malformed(name)) {
      return;
    }
    throw new ParseException(
        line,
        "template error: '{{" + name + "}}' is not a name (a dotted name needs a name"
            + " before, between and after its dots)");
  }

  private static boolean malformed(String name) {
    return name.contains(".")
        && !SPECIAL.contains(name)
        && (name.startsWith(".") || name.endsWith(".") || name.contains(".."));
  }

  /** Records the argument names a template reads, including inside sections and partials. */
  private static final class VariableCollector implements Mustache.Visitor {
    private final Map<String, Integer> variables;
    private final Problems problems;
    private final int line;
    /** The first malformed name met (see {@link #checkName}), or null. */
    private @Nullable String badName;

    VariableCollector(Map<String, Integer> variables, Problems problems, int line) {
      this.variables = variables;
      this.problems = problems;
      this.line = line;
    }

    @Override
    public void visitText(String text) {}

    @Override
    public void visitVariable(String name) {
      record(name);
    }

    @Override
    public boolean visitInclude(String name) {
      return true;
    }

    @Override
    public boolean visitSection(String name) {
      record(name);
      return true;
    }

    @Override
    public boolean visitInvertedSection(String name) {
      record(name);
      return true;
    }

    private void record(String name) {
      if (badName == null && malformed(name)) {
        badName = name;
      }
      record(name, variables, problems, line);
    }

    static void record(String name, Map<String, Integer> variables, Problems problems, int line) {
      if (SPECIAL.contains(name)) {
        return;
      }
      int dot = name.indexOf('.');
      if (dot > 0) {
        problems.warning(
            line,
            "'{{" + name + "}}': arguments are plain text, so '" + name.substring(dot)
                + "' always renders as nothing");
      }
      variables.putIfAbsent(dot > 0 ? name.substring(0, dot) : name, line);
    }
  }
}
