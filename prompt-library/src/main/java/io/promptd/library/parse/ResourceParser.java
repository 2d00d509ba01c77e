package io.promptd.library.parse;

import io.promptd.library.LibraryOptions;
import io.promptd.library.parse.template.MustacheTemplates;
import io.promptd.library.parse.template.TextTemplate;
import io.promptd.library.parse.template.UriTemplate;
import io.promptd.library.parse.text.Fields;
import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.FrontMatter;
import io.promptd.library.parse.text.MediaTypes;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import io.promptd.library.parse.text.Scopes;
import io.promptd.library.parse.text.YamlNode.Mapping;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.protocol.TextResourceContents;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Parses {@code NAME.resource.md}: YAML front matter ({@code uri} or {@code uriTemplate},
 * {@code name}, {@code title}, {@code description}, {@code mimeType}, {@code file}, {@code scopes},
 * and for a template {@code variables}) and a body that is the resource's text. See
 * {@code docs/resources.md} for the format.
 */
public final class ResourceParser {
  /** The file name ending that marks a resource file. */
  public static final String SUFFIX = ".resource.md";

  private static final Set<String> KEYS = Set.of(
      "uri",
      "uriTemplate",
      "name",
      "title",
      "description",
      "mimeType",
      "file",
      "variables",
      Scopes.KEY);
  private static final Pattern URI = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:\\S+");
  private static final Set<String> TEXT_APPLICATION_TYPES = Set.of(
      "application/json",
      "application/yaml",
      "application/xml",
      "application/javascript",
      "application/toml",
      "application/sql",
      "application/graphql");

  private ResourceParser() {}

  /** Whether {@code file} is named like a resource file. */
  public static boolean isResourceFile(Path file) {
    Path name = file.getFileName();
    if (name == null) {
      return false;
    }
    String n = name.toString().toLowerCase(Locale.ROOT);
    return n.endsWith(SUFFIX) && !n.startsWith(".") && n.length() > SUFFIX.length();
  }

  /**
   * Parses one resource file.
   *
   * @param root the root it is under
   * @param file the file
   * @param text its decoded text
   * @param options the size limits
   * @param problems receives warnings (and is where the caller records the error thrown)
   * @param dependencies receives the other files it reads or tries to read, even when it fails, so
   *     that a watcher can retry when a missing {@code file:} target appears
   * @param files reads a {@code file:} target and partials
   * @throws ParseException at the first error
   */
  public static ResourceFile parse(
      Root root,
      Path file,
      String text,
      LibraryOptions options,
      Problems problems,
      Set<Path> dependencies,
      FileAccess files)
      throws ParseException {
    FrontMatter fm = FrontMatter.parse(text);
    Mapping yaml = fm.yaml();
    Fields.warnUnknown(yaml, KEYS, "resource", problems);
    String uri = Fields.string(yaml, "uri");
    String uriTemplate = Fields.string(yaml, "uriTemplate");
    if ((uri == null) == (uriTemplate == null)) {
      throw new ParseException(
          1,
          uri == null
              ? "a resource file needs 'uri' (one resource) or 'uriTemplate' (a family of resources)"
              : "give either 'uri' or 'uriTemplate', not both");
    }
    String explicitName = Fields.string(yaml, "name");
    String description = Fields.string(yaml, "description");
    if (description == null || description.isBlank()) {
      problems.warning(1, "no description: clients show it next to the resource");
    }
    Head head = new Head(
        root,
        file,
        fm,
        explicitName != null && !explicitName.isBlank() ? explicitName : defaultName(file),
        Fields.string(yaml, "title"),
        description,
        Fields.string(yaml, "mimeType"),
        stripFinalNewline(fm.body()),
        Scopes.read(yaml));
    return uriTemplate != null
        ? templated(head, uriTemplate, options, problems, dependencies, files)
        : fixed(
            head,
            checkScheme(uri, "uri", Fields.line(yaml, "uri", 1)),
            options,
            dependencies,
            files);
  }

  /** What both kinds of resource file share. */
  private record Head(
      Root root,
      Path file,
      FrontMatter fm,
      String name,
      @Nullable String title,
      @Nullable String description,
      @Nullable String mimeType,
      String body,
      @Nullable Set<String> scopes) {
    Mapping yaml() {
      return fm.yaml();
    }
  }

  private static ResourceFile.Templated templated(
      Head head,
      String uriTemplate,
      LibraryOptions options,
      Problems problems,
      Set<Path> dependencies,
      FileAccess files)
      throws ParseException {
    int line = Fields.line(head.yaml(), "uriTemplate", 1);
    if (head.yaml().get("file") != null) {
      throw new ParseException(
          Fields.line(head.yaml(), "file", 1),
          "a templated resource takes its contents from its body, not from 'file'");
    }
    UriTemplate compiled = UriTemplate.parse(uriTemplate, line);
    checkScheme(uriTemplate, "uriTemplate", line);
    String type = head.mimeType() != null ? head.mimeType() : "text/plain";
    Map<String, Integer> variables = new LinkedHashMap<>();
    TextTemplate template = new MustacheTemplates(
            head.root(), options.maxPromptBytes(), dependencies, files)
        .compile(head.body(), head.fm().bodyLine(), variables, problems);
    for (Map.Entry<String, Integer> v : variables.entrySet()) {
      if (!compiled.names().contains(v.getKey())) {
        throw new ParseException(
            v.getValue(),
            "body uses '" + v.getKey() + "' but uriTemplate '" + uriTemplate + "' has no '{"
                + v.getKey() + "}'");
      }
    }
    Map<String, TemplateVariable> declared = TemplateVariable.read(head.yaml(), compiled, problems);
    ResourceTemplate listed = new ResourceTemplate(
        uriTemplate, head.name(), head.title(), head.description(), type, null, List.of(), null);
    return new ResourceFile.Templated(
        head.file(), line, listed, compiled, type, template, dependencies, head.scopes(), declared);
  }

  private static ResourceFile.Fixed fixed(
      Head head, String uri, LibraryOptions options, Set<Path> dependencies, FileAccess files)
      throws ParseException {
    if (head.yaml().get("variables") != null) {
      throw new ParseException(
          Fields.line(head.yaml(), "variables", 1),
          "'variables' describes the variables of a 'uriTemplate'; a resource with a fixed 'uri' has none");
    }
    String reference = Fields.string(head.yaml(), "file");
    ResourceContents contents;
    long size;
    if (reference != null) {
      if (!head.body().isBlank()) {
        throw new ParseException(
            head.fm().bodyLine(), "give the contents either in the body or with 'file', not both");
      }
      int fileLine = Fields.line(head.yaml(), "file", 1);
      Path target = SafeFiles.resolve(head.root(), head.file(), reference, fileLine);
      dependencies.add(target);
      byte[] data =
          files.read(head.root(), target, options.maxAttachmentBytes(), fileLine, "resource file");
      String type = head.mimeType() != null ? head.mimeType() : guessType(target);
      contents = fromBytes(uri, type, data, reference, fileLine);
      size = data.length;
    } else {
      String type = head.mimeType() != null ? head.mimeType() : "text/plain";
      contents = new TextResourceContents(uri, type, head.body(), null);
      size = head.body().getBytes(StandardCharsets.UTF_8).length;
    }
    Resource resource = new Resource(
        uri,
        head.name(),
        head.title(),
        head.description(),
        contents.mimeType(),
        size,
        null,
        List.of(),
        null);
    return new ResourceFile.Fixed(
        head.file(),
        Fields.line(head.yaml(), "uri", 1),
        resource,
        contents,
        dependencies,
        head.scopes());
  }

  /**
   * The contents of a file served as a resource: text when {@code mimeType} is textual (the bytes
   * must then be UTF-8), else a base64 blob; image and audio bytes must match their type.
   */
  static ResourceContents fromBytes(
      String uri, String mimeType, byte[] data, String shown, int line) throws ParseException {
    if (!MediaTypes.looksLike(mimeType, data)) {
      throw new ParseException(line, "'" + shown + "' does not contain " + mimeType + " data");
    }
    if (isText(mimeType)) {
      try {
        return new TextResourceContents(uri, mimeType, SafeFiles.decodeUtf8(data), null);
      } catch (ParseException e) {
        throw new ParseException(line, "'" + shown + "' is " + mimeType + " but " + e.getMessage());
      }
    }
    return new BlobResourceContents(uri, mimeType, Base64.getEncoder().encodeToString(data), null);
  }

  /**
   * The MIME type a file's extension suggests: image, audio or text types promptd knows, else
   * octet-stream.
   */
  static String guessType(Path file) {
    String name = String.valueOf(file.getFileName());
    String type = MediaTypes.image(name);
    if (type == null) {
      type = MediaTypes.audio(name);
    }
    if (type == null) {
      type = MediaTypes.text(name);
    }
    return type != null ? type : "application/octet-stream";
  }

  /** Whether contents of {@code mimeType} are served as text. */
  static boolean isText(String mimeType) {
    String base = mimeType.toLowerCase(Locale.ROOT);
    int semicolon = base.indexOf(';');
    base = (semicolon < 0 ? base : base.substring(0, semicolon)).strip();
    return base.startsWith("text/")
        || TEXT_APPLICATION_TYPES.contains(base)
        || base.endsWith("+json")
        || base.endsWith("+xml")
        || base.endsWith("+yaml");
  }

  private static String checkScheme(@Nullable String value, String key, int line)
      throws ParseException {
    if (value == null || !URI.matcher(value).matches()) {
      throw new ParseException(
          line,
          "'" + key + "' must be an absolute URI such as 'docs://guide' (scheme, ':',"
              + " no spaces), not '" + value + "'");
    }
    return value;
  }

  private static String defaultName(Path file) {
    String n = String.valueOf(file.getFileName());
    return n.substring(0, n.length() - SUFFIX.length());
  }

  private static String stripFinalNewline(String body) {
    return body.endsWith("\n") ? body.substring(0, body.length() - 1) : body;
  }
}
