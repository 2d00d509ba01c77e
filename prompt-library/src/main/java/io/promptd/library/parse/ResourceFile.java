package io.promptd.library.parse;

import static java.util.Objects.requireNonNull;

import io.promptd.library.parse.template.TextTemplate;
import io.promptd.library.parse.template.UriTemplate;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;
import io.promptd.mcp.protocol.TextResourceContents;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** A {@code NAME.resource.md} file that parsed: one fixed resource or one resource template. */
public sealed interface ResourceFile permits ResourceFile.Fixed, ResourceFile.Templated {
  /** The file. */
  Path file();

  /** The line that sets the URI or URI template. */
  int line();

  /** The URI or URI template: two files claiming the same one clash. */
  String key();

  /**
   * The other files it was made from (a {@code file:} target, partials), so that their changes
   * reload it.
   */
  Set<Path> dependencies();

  /**
   * The scopes its front matter requires, or null when it sets none and so takes its folder's
   * default.
   */
  @Nullable
  Set<String> scopes();

  /**
   * A resource whose contents were read at load time.
   *
   * @param file the file
   * @param line the line of {@code uri}
   * @param resource what {@code resources/list} shows
   * @param contents what {@code resources/read} returns
   * @param dependencies files it was read from besides {@code file}
   * @param scopes the scopes its front matter requires, or null for its folder's default
   */
  record Fixed(
      Path file,
      int line,
      Resource resource,
      ResourceContents contents,
      Set<Path> dependencies,
      @Nullable Set<String> scopes)
      implements ResourceFile {
    /** Checks and copies the fields. */
    public Fixed {
      requireNonNull(file, "file");
      requireNonNull(resource, "resource");
      requireNonNull(contents, "contents");
      dependencies = Set.copyOf(dependencies);
      scopes = scopes == null ? null : Set.copyOf(scopes);
    }

    @Override
    public String key() {
      return resource.uri();
    }
  }

  /**
   * A family of resources: a URI template and a body rendered with the values taken from the
   * requested URI.
   *
   * @param file the file
   * @param line the line of {@code uriTemplate}
   * @param template what {@code resources/templates/list} shows
   * @param uriTemplate the compiled URI template
   * @param mimeType the MIME type of every resource it yields
   * @param body the body, rendered logic-less with the URI's variables
   * @param dependencies partials it reads
   * @param scopes the scopes its front matter requires, or null for its folder's default
   * @param variables what {@code variables:} declares about the URI template's variables, by name
   */
  record Templated(
      Path file,
      int line,
      ResourceTemplate template,
      UriTemplate uriTemplate,
      String mimeType,
      TextTemplate body,
      Set<Path> dependencies,
      @Nullable Set<String> scopes,
      Map<String, TemplateVariable> variables)
      implements ResourceFile {
    /** Checks and copies the fields. */
    public Templated {
      requireNonNull(file, "file");
      requireNonNull(template, "template");
      requireNonNull(uriTemplate, "uriTemplate");
      requireNonNull(mimeType, "mimeType");
      requireNonNull(body, "body");
      dependencies = Set.copyOf(dependencies);
      scopes = scopes == null ? null : Set.copyOf(scopes);
      variables = Map.copyOf(variables);
    }

    @Override
    public String key() {
      return uriTemplate.text();
    }

    /** Whether this template serves {@code uri}: see {@link #read(String)}. */
    public boolean matches(String uri) {
      return values(uri).isPresent();
    }

    private Optional<Map<String, String>> values(String uri) {
      return uriTemplate
          .match(uri)
          .filter(v -> v.entrySet().stream()
              .allMatch(e -> !variables.containsKey(e.getKey())
                  || variables.get(e.getKey()).admits(e.getValue(), v)));
    }

    /**
     * Suggestions for {@code variable}, from its declared {@code enum} or {@code examples}; none
     * for a variable without a declaration or one the template does not have.
     */
    public Completion complete(String variable, String value, Map<String, String> context) {
      TemplateVariable declared = variables.get(variable);
      return declared == null ? Completion.EMPTY : Completion.of(declared.suggest(value, context));
    }

    /**
     * The contents of {@code uri} when it matches the template and gives every variable with an
     * {@code enum} one of its values; values are inserted once, never re-read.
     */
    public Optional<ResourceContents> read(String uri) {
      Optional<Map<String, String>> values = values(uri);
      return values.map(v -> new TextResourceContents(
          uri, mimeType, body.render(Map.<String, Object>copyOf(v)), null));
    }
  }
}
