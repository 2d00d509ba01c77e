package io.promptd.library.parse.format;

import io.promptd.library.LibraryOptions;
import io.promptd.library.parse.ArgumentReader;
import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.Attachments;
import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.template.MustacheTemplates;
import io.promptd.library.parse.template.Part;
import io.promptd.library.parse.text.Fields;
import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.FrontMatter;
import io.promptd.library.parse.text.MediaTypes;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.PromptNames;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import io.promptd.library.parse.text.Scopes;
import io.promptd.library.parse.text.YamlNode;
import io.promptd.library.parse.text.YamlNode.Mapping;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.ArgumentForms;
import io.promptd.mcp.server.PromptFolding;
import io.promptd.mcp.server.ServerText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@code NAME.prompt.md}: YAML front matter ({@code name}, {@code title}, {@code description},
 * {@code icons}, {@code tags}, {@code arguments}, {@code scopes}, {@code elicit},
 * {@code formFirst}, {@code confirm}, {@code fold}, {@code locale}) and a Mustache body split into
 * messages by {@link BodyParser}.
 */
public final class NativeFormat implements PromptFormat {
  /** The {@code _meta} key tags are published under. */
  static final String TAGS_META = "io.promptd/tags";
  /**
   * The {@code _meta} key under which each constrained argument's rules are published, by argument
   * name.
   */
  static final String ARGUMENTS_META = ArgumentForms.ARGUMENTS_META;

  private static final Set<String> KEYS = Set.of(
      "name",
      "title",
      "description",
      "icons",
      "tags",
      "arguments",
      "elicit",
      "formFirst",
      "confirm",
      "fold",
      "locale",
      Scopes.KEY);

  NativeFormat() {}

  @Override
  public String name() {
    return "native";
  }

  @Override
  public @Nullable Home home() {
    return null;
  }

  @Override
  public String extension() {
    return ".prompt.md";
  }

  @Override
  public @Nullable String suffix(String lowerName) {
    return lowerName.endsWith(".prompt.md") ? ".prompt.md" : null;
  }

  /** A native file is its own native text. */
  @Override
  public String toNative(PromptFile file, String original, List<String> notes) {
    return original;
  }

  @Override
  public @Nullable PromptFile parse(Source source, Parsing parsing) throws ParseException {
    return parseNative(source, parsing);
  }

  /**
   * Parses native text: a native file's, or what a templated format translated its file into. Only
   * front matter that cannot be read at all is thrown; past it each check runs whatever the others
   * found, its error recorded with {@link Problems#fail}, so that one run reports every error of
   * the file.
   *
   * @return the prompt, or null when an error was recorded
   */
  static @Nullable PromptFile parseNative(Source source, Parsing parsing) throws ParseException {
    LibraryOptions options = parsing.options();
    Problems problems = parsing.problems();
    Set<Path> dependencies = parsing.dependencies();
    Set<Path> attached = parsing.attached();
    FileAccess files = parsing.files();
    FrontMatter fm = FrontMatter.parse(source.text());
    Mapping yaml = fm.yaml();
    Fields.warnUnknown(yaml, KEYS, "front matter", problems);
    int nameLine = Fields.line(yaml, "name", 1);
    String name = problems.attempt(() -> {
      String explicit = Fields.string(yaml, "name");
      return explicit != null
          ? PromptNames.explicit(explicit, nameLine)
          : PromptNames.derive(source.match().nameSegments());
    });
    Set<String> scopes = problems.attempt(() -> Scopes.read(yaml));
    Boolean elicit = problems.attempt(() -> Fields.bool(yaml, "elicit", true));
    ArgumentReader.Declared declared = ArgumentReader.read(yaml, problems);
    List<ArgumentSpec> arguments = declared.specs();
    Root root = source.root();
    MustacheTemplates templates =
        new MustacheTemplates(root, options.maxPromptBytes(), dependencies, files);
    Attachments attachments = new Attachments(
        root, source.file(), options.maxAttachmentBytes(), dependencies, attached, files);
    Map<String, Integer> variables = new LinkedHashMap<>();
    List<Part> parts =
        problems.attempt(() -> new BodyParser(templates, attachments, variables, problems)
            .parse(fm.body(), fm.bodyLine()));
    if (parts != null) { // a body read in part says nothing of the variables it would use
      checkVariables(declared, variables, problems);
    }
    String description = problems.attempt(() -> Fields.string(yaml, "description"));
    if ((description == null || description.isBlank()) && !problems.failed()) {
      problems.warning(1, "no description: clients show it next to the prompt's name");
    }
    List<Icon> icons = problems.attempt(() -> icons(yaml, source, options, dependencies, files));
    String title = problems.attempt(() -> Fields.string(yaml, "title"));
    PromptFolding fold = problems.attempt(() -> folding(yaml));
    JsonObject meta = meta(yaml, arguments, elicit == null || elicit, fold, problems);
    if (problems.failed() || name == null || parts == null || icons == null) {
      return null;
    }
    List<PromptArgument> listed =
        new ArrayList<>(arguments.size()); // a loop: a stream per file cost more
    for (ArgumentSpec a : arguments) {
      listed.add(a.toProtocol());
    }
    Prompt prompt = new Prompt(name, title, description, listed, icons, meta);
    return new PromptFile(
        source.file(), root, nameLine, prompt, arguments, parts, scopes, elicit != null && elicit);
  }

  /**
   * A template variable with no argument is an error; an argument no template reads is a warning. A
   * variable named by a declaration that failed is no error of its own, nor is any when the
   * {@code arguments} list itself failed.
   */
  static void checkVariables(
      ArgumentReader.Declared declared, Map<String, Integer> variables, Problems problems) {
    Set<String> names = new HashSet<>(declared.failed());
    for (ArgumentSpec a : declared.specs()) {
      names.add(a.name());
    }
    if (declared.complete()) {
      for (Map.Entry<String, Integer> v : variables.entrySet()) {
        if (!names.contains(v.getKey())) {
          problems.error(
              v.getValue(),
              "template uses '" + v.getKey() + "' but no argument '" + v.getKey()
                  + "' is declared");
        }
      }
    }
    for (ArgumentSpec a : declared.specs()) {
      if (!variables.containsKey(a.name())) {
        problems.warning(a.line(), "argument '" + a.name() + "' is declared but never used");
      }
    }
  }

  /**
   * The front matter's {@code fold}: whether the prompt is folded into one text message for clients
   * that use only the first ({@link PromptFolding}); null when not set.
   */
  private static @Nullable PromptFolding folding(Mapping yaml) throws ParseException {
    String value = Fields.string(yaml, "fold");
    if (value == null) {
      return null;
    }
    return PromptFolding.of(value.strip())
        .orElseThrow(() -> new ParseException(
            Fields.line(yaml, "fold", 1),
            "'fold' must be auto, always or never, not '" + value + "'"));
  }

  /**
   * The prompt's {@code _meta}: its tags, its arguments' rules, form settings and its own
   * {@code fold}; null when it has none.
   */
  private static @Nullable JsonObject meta(
      Mapping yaml,
      List<ArgumentSpec> arguments,
      boolean elicit,
      @Nullable PromptFolding fold,
      Problems problems) {
    List<String> tags = problems.attempt(() -> Fields.strings(yaml, "tags"));
    Map<String, JsonObject> settings = ArgumentReader.formSettings(yaml, problems);
    JsonObject.Builder constrained = JsonObject.builder();
    for (ArgumentSpec a : arguments) {
      JsonObject rules = a.constraints();
      JsonObject own = settings.get(a.name());
      if (own != null) {
        JsonObject.Builder merged = rules == null ? JsonObject.builder() : rules.toBuilder();
        own.members().forEach(merged::put);
        rules = merged.build();
      }
      constrained.put(a.name(), rules);
    }
    JsonObject rules = constrained.build();
    JsonObject form = formMeta(yaml, elicit, problems);
    String locale = locale(yaml, problems);
    if ((tags == null || tags.isEmpty())
        && rules.isEmpty()
        && form == null
        && fold == null
        && locale == null) {
      return null;
    }
    return JsonObject.builder()
        .put(ServerText.LOCALE_META, locale)
        .put(TAGS_META, tags == null || tags.isEmpty() ? null : JsonArray.ofStrings(tags))
        .put(ARGUMENTS_META, rules.isEmpty() ? null : rules)
        .put(ArgumentForms.FORM_META, form)
        .put(PromptFolding.META, fold == null ? null : fold.id())
        .build();
  }

  /**
   * The prompt-level form settings as {@link ArgumentForms} reads them: {@code elicit: false}
   * (never ask), {@code formFirst: false} (keep the required flags), {@code confirm} (show given
   * free text); null when none is set.
   */
  private static @Nullable JsonObject formMeta(Mapping yaml, boolean elicit, Problems problems) {
    JsonObject.Builder b = JsonObject.builder();
    if (!elicit) {
      b.put("elicit", false);
    }
    if (yaml.get("formFirst") != null) {
      Boolean first = problems.attempt(() -> Fields.bool(yaml, "formFirst", true));
      b.put("first", first == null || first);
    }
    if (yaml.get("confirm") != null) {
      Boolean confirm = problems.attempt(() -> Fields.bool(yaml, "confirm", false));
      b.put("confirm", confirm != null && confirm);
    }
    JsonObject built = b.build();
    return built.isEmpty() ? null : built;
  }

  /**
   * The language of the texts promptd shows for this prompt ({@code locale:}, a tag such as
   * {@code ja} or {@code zh-CN}), or null when none is set. A language promptd does not speak is a
   * warning and left out: the prompt then speaks the server's language.
   */
  private static @Nullable String locale(Mapping yaml, Problems problems) {
    YamlNode node = yaml.get("locale");
    if (node == null) {
      return null;
    }
    String tag = problems.attempt(() -> Fields.string(yaml, "locale"));
    if (tag == null) {
      return null;
    }
    return ServerText.parse(tag).map(Locale::toLanguageTag).orElseGet(() -> {
      problems.warning(
          node.line(),
          "'locale' must be en, zh-CN or ja, not '" + tag + "': the server's language is used");
      return null;
    });
  }

  /**
   * Icons are {@code https:} or {@code data:} URIs, or files inside the root turned into
   * {@code data:} URIs.
   */
  private static List<Icon> icons(
      Mapping yaml, Source source, LibraryOptions options, Set<Path> dependencies, FileAccess files)
      throws ParseException {
    YamlNode node = yaml.get("icons");
    if (node == null) {
      return List.of();
    }
    if (!(node instanceof YamlNode.Sequence list)) {
      throw new ParseException(node.line(), "'icons' must be a list");
    }
    List<Icon> icons = new ArrayList<>();
    for (YamlNode item : list.items()) {
      Mapping m =
          item instanceof Mapping mapping ? mapping : new Mapping(Map.of("src", item), item.line());
      String src = Fields.string(m, "src");
      if (src == null) {
        throw new ParseException(m.line(), "each icon needs 'src'");
      }
      String mimeType = Fields.string(m, "mimeType");
      if (!src.startsWith("https:") && !src.startsWith("data:")) {
        Path path = SafeFiles.resolve(source.root(), source.file(), src, m.line());
        dependencies.add(path);
        String type = MediaTypes.image(path.getFileName().toString());
        byte[] data =
            files.read(source.root(), path, options.maxAttachmentBytes(), m.line(), "icon");
        if (type == null || !MediaTypes.looksLike(type, data)) {
          throw new ParseException(
              m.line(), "icon '" + src + "' must be a " + MediaTypes.supported(true) + " image");
        }
        mimeType = type;
        src = "data:" + type + ";base64," + Base64.getEncoder().encodeToString(data);
      }
      try {
        icons.add(new Icon(src, mimeType, Fields.strings(m, "sizes"), Fields.string(m, "theme")));
      } catch (IllegalArgumentException e) {
        throw new ParseException(m.line(), String.valueOf(e.getMessage()));
      }
    }
    return icons;
  }
}
