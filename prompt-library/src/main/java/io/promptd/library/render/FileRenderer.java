package io.promptd.library.render;

import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.template.Part;
import io.promptd.library.parse.template.Speaker;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentsNeeded;
import io.promptd.mcp.server.PromptRenderer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Renders a prompt file: checks and completes the arguments, fills every part, and folds system
 * text into the first user message — MCP has no system role, so system sections come first in that
 * message, separated by a blank line. Text that renders blank is left out.
 */
final class FileRenderer implements PromptRenderer {
  private final PromptFile file;
  private final ArgumentBinder binder;

  FileRenderer(PromptFile file) {
    this.file = file;
    this.binder = new ArgumentBinder(file.name(), file.arguments());
  }

  @Override
  public GetPromptResult render(Map<String, String> arguments) {
    return fill(binder.bind(arguments));
  }

  /**
   * With the {@code verbatim} arguments' values (a client's placeholders) in the text as they are,
   * unchecked.
   */
  @Override
  public GetPromptResult render(Map<String, String> arguments, Set<String> verbatim) {
    return fill(binder.bind(arguments, verbatim));
  }

  private GetPromptResult fill(Map<String, Object> values) {
    List<String> system = new ArrayList<>();
    List<PromptMessage> messages = new ArrayList<>();
    for (Part part : file.parts()) {
      switch (part) {
        case Part.Text t -> {
          String text = t.template().render(values).strip();
          if (text.isEmpty()) {
            continue;
          }
          if (t.speaker() == Speaker.SYSTEM) {
            system.add(text);
          } else {
            messages.add(new PromptMessage(t.speaker().role(), TextContent.of(text)));
          }
        }
        case Part.Fixed f -> messages.add(new PromptMessage(f.role(), f.content()));
        case Part.InlineResource r ->
          messages.add(new PromptMessage(
              r.role(),
              new EmbeddedResource(
                  new TextResourceContents(
                      r.uri().render(values).strip(), r.mimeType(), r.text().render(values), null),
                  null,
                  null)));
        case Part.Link l -> {
          String uri = l.uri().render(values).strip();
          String name = l.name();
          messages.add(new PromptMessage(
              l.role(),
              new ResourceLink(
                  uri,
                  name != null ? name : lastSegment(uri),
                  null,
                  null,
                  l.mimeType(),
                  null,
                  null,
                  null)));
        }
      }
    }
    if (!system.isEmpty()) {
      fold(String.join("\n\n", system), messages);
    }
    return GetPromptResult.of(file.prompt().description(), messages);
  }

  private static void fold(String system, List<PromptMessage> messages) {
    for (int i = 0; i < messages.size(); i++) {
      PromptMessage m = messages.get(i);
      if (m.role() == Role.USER && m.content() instanceof TextContent text) {
        messages.set(i, PromptMessage.user(system + "\n\n" + text.text()));
        return;
      }
    }
    messages.addFirst(PromptMessage.user(system));
  }

  private static String lastSegment(String uri) {
    String trimmed = uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri;
    int slash = trimmed.lastIndexOf('/');
    return slash < 0 || slash == trimmed.length() - 1 ? trimmed : trimmed.substring(slash + 1);
  }

  /** Everything it needs was read when the file was loaded: it never blocks. */
  @Override
  public boolean mayBlock() {
    return false;
  }

  /** The argument's declaration as a form field: type, choices, default, pattern. */
  @Override
  public @Nullable ArgumentField field(String argument) {
    for (ArgumentSpec spec : file.arguments()) {
      if (spec.name().equals(argument)) {
        return spec.toField();
      }
    }
    return null;
  }

  /** Every given value that breaks its argument's declared rules. */
  @Override
  public List<ArgumentsNeeded.Question> check(Map<String, String> arguments) {
    return binder.violations(arguments);
  }

  /** Unless the front matter says {@code elicit: false}. */
  @Override
  public boolean elicits() {
    return file.elicit();
  }
}
