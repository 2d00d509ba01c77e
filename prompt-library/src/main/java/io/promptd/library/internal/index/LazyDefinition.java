package io.promptd.library.internal.index;

import io.promptd.library.LibraryOptions;
import io.promptd.library.internal.disk.StoredPrompt;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.parse.ParseResult;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.format.PromptParser;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import io.promptd.library.render.Definitions;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.server.ArgumentCompleter;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentForms;
import io.promptd.mcp.server.ArgumentsNeeded;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptRenderer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A prompt restored from the on-disk index: listed from the metadata the index kept, parsed from
 * its file the first time it is rendered or completed. A restart therefore reads no prompt file
 * before it answers {@code prompts/list}.
 */
final class LazyDefinition {
  private final FileSource source;
  private final LibraryOptions options;
  private final Root root;
  private final Path file;
  private final FileKind.Match match;
  private final String name;
  private volatile @Nullable PromptDefinition full;
  /**
   * The definition listing it (and so the one place its listing is decoded), set as soon as it is
   * made.
   */
  private volatile @Nullable PromptDefinition listed;

  private LazyDefinition(
      FileSource source,
      LibraryOptions options,
      Root root,
      Path file,
      FileKind.Match match,
      String name) {
    this.source = source;
    this.options = options;
    this.root = root;
    this.file = file;
    this.match = match;
    this.name = name;
  }

  /**
   * The definition to serve for {@code prompt}, kept in the index for {@code file}: known by its
   * name, its listing decoded when first asked for.
   *
   * @param completable whether the parsed prompt offers completions
   */
  static PromptDefinition of(
      FileSource source,
      LibraryOptions options,
      Root root,
      Path file,
      FileKind.Match match,
      StoredPrompt prompt,
      boolean completable) {
    LazyDefinition lazy = new LazyDefinition(source, options, root, file, match, prompt.name());
    ArgumentCompleter completer = completable ? lazy::complete : null;
    PromptRenderer renderer =
        new PromptRenderer() { // may block: its first use reads and parses the file
          @Override
          public GetPromptResult render(Map<String, String> arguments) throws Exception {
            return lazy.full().renderer().render(arguments);
          }

          @Override
          public GetPromptResult render(Map<String, String> arguments, Set<String> verbatim)
              throws Exception {
            return lazy.full().renderer().render(arguments, verbatim);
          }

          @Override
          public @Nullable ArgumentField field(String argument) {
            return lazy.full().renderer().field(argument);
          }

          @Override
          public List<ArgumentsNeeded.Question> check(Map<String, String> arguments) {
            return lazy.full().renderer().check(arguments);
          }

          // From the listed metadata (a form-first listing asks every prompt): no parse.
          @Override
          public boolean elicits() {
            return lazy.elicits();
          }
        };
    PromptDefinition listed = PromptDefinition.listed(prompt.name(), prompt, renderer, completer);
    lazy.listed = listed;
    return listed;
  }

  /**
   * Whether the listed prompt asks for missing arguments with a form: unless its form settings say
   * not to.
   */
  private boolean elicits() {
    PromptDefinition d = listed;
    Prompt prompt = d == null ? null : d.prompt();
    return !(prompt != null
        && prompt.meta() != null
        && prompt.meta().get(ArgumentForms.FORM_META) instanceof JsonObject form
        && form.get("elicit") instanceof JsonBoolean b
        && !b.value());
  }

  private Completion complete(String argument, String value, Map<String, String> context) {
    ArgumentCompleter completer = full().completer();
    return completer == null ? Completion.EMPTY : completer.complete(argument, value, context);
  }

  private PromptDefinition full() {
    PromptDefinition d = full;
    if (d == null) {
      synchronized (this) {
        d = full;
        if (d == null) {
          d = parse();
          full = d;
        }
      }
    }
    return d;
  }

  private PromptDefinition parse() {
    ParseResult result;
    try {
      result = PromptParser.parse(
          root,
          file,
          match,
          source.read(root, file, options.maxPromptBytes(), 0, "prompt file"),
          options,
          source);
    } catch (ParseException e) {
      result = PromptParser.unreadable(file, e);
    }
    PromptFile prompt = result.prompt();
    if (prompt == null) {
      // Changed on disk while nobody watched: the reload that follows serves what it holds now.
      throw McpException.internal("prompt '" + name + "' cannot be read now; see the server log");
    }
    return Definitions.of(prompt);
  }
}
