package io.promptd.library.parse.format;

import io.promptd.library.parse.Attachments;
import io.promptd.library.parse.template.MustacheTemplates;
import io.promptd.library.parse.template.Part;
import io.promptd.library.parse.template.Speaker;
import io.promptd.library.parse.template.TextTemplate;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.mcp.protocol.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Splits a {@code *.prompt.md} body into messages. A line {@code ::: user}, {@code ::: assistant}
 * or {@code ::: system} starts a section; a line {@code ::: image PATH}, {@code ::: audio PATH},
 * {@code ::: resource PATH}, {@code ::: resource URI} or {@code ::: link URI [NAME]} attaches
 * content to the current section. Markers are found before any template runs, so an argument value
 * can never create one; lines inside fenced code blocks are never markers.
 */
public final class BodyParser {
  private static final Pattern MARKER = Pattern.compile("^:::\\s*([A-Za-z]+)(?:\\s+(.*?))?\\s*$");
  private static final Set<String> ATTACHMENTS = Set.of("image", "audio", "resource", "link");
  private static final Pattern URI = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*:|\\{\\{).*");

  private final MustacheTemplates templates;
  private final Attachments attachments;
  private final Map<String, Integer> variables;
  private final Problems problems;
  private final List<Part> parts = new ArrayList<>();

  private Speaker speaker = Speaker.USER;
  private final StringBuilder text = new StringBuilder();
  private int textLine;
  private @Nullable InlineStart inline;

  private record InlineStart(Role role, TextTemplate uri, int line) {}

  public BodyParser(
      MustacheTemplates templates,
      Attachments attachments,
      Map<String, Integer> variables,
      Problems problems) {
    this.templates = templates;
    this.attachments = attachments;
    this.variables = variables;
    this.problems = problems;
  }

  /** Parses {@code body}, whose first line is {@code firstLine} of the file. */
  public List<Part> parse(String body, int firstLine) throws ParseException {
    textLine = firstLine;
    boolean fenced = false;
    int line = firstLine;
    for (String current : body.split("\n", -1)) {
      String stripped = current.stripLeading();
      if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
        fenced = !fenced;
      }
      // Only a line starting with ':::' can match: the others skip the regular expression.
      Matcher m = fenced || !current.startsWith(":::") ? null : MARKER.matcher(current);
      if (m != null
          && m.matches()
          && directive(m.group(1).toLowerCase(Locale.ROOT), m.group(2), line)) {
        textLine = line + 1;
      } else {
        text.append(current).append('\n');
      }
      line++;
    }
    flush();
    return parts;
  }

  /** Handles a {@code :::} line; false when it is not one of ours and stays text. */
  private boolean directive(String word, @Nullable String argument, int line)
      throws ParseException {
    Speaker next = switch (word) {
      case "system" -> Speaker.SYSTEM;
      case "user" -> Speaker.USER;
      case "assistant" -> Speaker.ASSISTANT;
      default -> null;
    };
    if (next != null) {
      if (argument != null && !argument.isEmpty()) {
        throw new ParseException(line, "'::: " + word + "' takes nothing after it");
      }
      flush();
      speaker = next;
      return true;
    }
    if (!ATTACHMENTS.contains(word)) {
      problems.warning(
          line,
          "'::: " + word + "' is not a marker (system, user, assistant, image, audio, resource,"
              + " link) and is kept as text");
      return false;
    }
    if (argument == null || argument.isEmpty()) {
      throw new ParseException(
          line, "'::: " + word + "' needs a " + (word.equals("link") ? "URI" : "path"));
    }
    flush();
    if (speaker == Speaker.SYSTEM) {
      throw new ParseException(
          line,
          "'::: " + word + "' cannot go in a system section; system text is folded into"
              + " the first user message");
    }
    attach(word, argument, line);
    return true;
  }

  private void attach(String word, String argument, int line) throws ParseException {
    Role role = speaker.role();
    switch (word) {
      case "image", "audio" ->
        parts.add(
            new Part.Fixed(role, attachments.media(word.equals("image"), argument, line), line));
      case "resource" -> {
        if (URI.matcher(argument).matches()) {
          inline = new InlineStart(role, template(argument, line), line);
        } else {
          parts.add(new Part.Fixed(role, attachments.resource(argument, line), line));
        }
      }
      default -> {
        String[] split = argument.split("\\s+", 2);
        String name = split.length > 1 ? split[1] : null;
        attachments.link(split[0]);
        parts.add(new Part.Link(role, template(split[0], line), name, null, line));
      }
    }
  }

  /** Ends the current text: a message of the current speaker, or the text of an inline resource. */
  private void flush() throws ParseException {
    String raw = text.toString();
    String source = raw.strip();
    text.setLength(0);
    // Keep template errors on the right line: count the blank lines strip() dropped in front.
    int first = textLine;
    for (int i = 0; i < raw.length() && Character.isWhitespace(raw.charAt(i)); i++) {
      if (raw.charAt(i) == '\n') {
        first++;
      }
    }
    InlineStart resource = inline;
    inline = null;
    if (resource != null) {
      parts.add(new Part.InlineResource(
          resource.role(), resource.uri(), "text/plain", template(source, first), resource.line()));
    } else if (!source.isEmpty()) {
      parts.add(new Part.Text(speaker, template(source, first), first));
    }
  }

  private TextTemplate template(String source, int line) throws ParseException {
    return templates.compile(source, line, variables, problems);
  }
}
