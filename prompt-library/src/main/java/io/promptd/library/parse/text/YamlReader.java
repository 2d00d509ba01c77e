package io.promptd.library.parse.text;

import io.promptd.library.parse.text.YamlNode.Kind;
import java.io.Serial;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.resolver.JsonScalarResolver;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * Parses front matter with snakeyaml-engine's composer only: the node graph is turned into
 * {@link YamlNode}s here, so no constructor runs and no tag can create an object. Aliases, depth
 * and size are bounded against YAML bombs.
 */
public final class YamlReader {
  private static final int MAX_NODES = 10_000;
  private static final int MAX_DEPTH = 32;
  /**
   * The composer's events a front matter may have: {@link #MAX_NODES} nodes are at most twice as
   * many events (a collection starts and ends), and the events beyond are the stream's and
   * document's own.
   */
  private static final int MAX_EVENTS = 2 * MAX_NODES + 8;
  /**
   * Front matter is bounded on its own, not only by the file's size limit, which a deployment may
   * raise: the reader holds every code point of it.
   */
  private static final int MAX_CODE_POINTS = 2 << 20;
  // Immutable and costly to build (it sets up the schema's resolvers), so shared by every parse.
  private static final LoadSettings SETTINGS = LoadSettings.builder()
      .setLabel("front matter")
      .setAllowRecursiveKeys(false)
      .setMaxAliasesForCollections(20)
      .setCodePointLimit(MAX_CODE_POINTS)
      .build();

  /**
   * The first characters {@link JsonScalarResolver} has resolvers for, besides the empty string.
   */
  private static final String RESOLVED_FIRST = "tfn-0123456789.$";

  private static final boolean JSON_SCHEMA =
      SETTINGS.getSchema().getScalarResolver().getClass() == JsonScalarResolver.class;

  private final int firstLine;
  private int budget = MAX_NODES;

  private YamlReader(int firstLine) {
    this.firstLine = firstLine;
  }

  /**
   * Parses {@code yaml}, whose first line is line {@code firstLine} of the file.
   *
   * @return the top-level mapping; empty front matter is an empty mapping
   */
  public static YamlNode.Mapping read(String yaml, int firstLine) throws ParseException {
    YamlNode.Mapping simple = SimpleYaml.read(yaml, firstLine, YamlReader::kind);
    return simple != null ? simple : readFully(yaml, firstLine);
  }

  /** Parses {@code yaml} with SnakeYAML, whatever it holds. */
  static YamlNode.Mapping readFully(String yaml, int firstLine) throws ParseException {
    Optional<Node> root;
    try {
      root = new Composer(SETTINGS, new BoundedParser(yaml, firstLine)).getSingleNode();
    } catch (BoundedParser.TooLarge e) {
      throw new ParseException(e.line, e.problem);
    } catch (StackOverflowError e) {
      // The parser bounds the depth the composer recurses to; this is the last line of defence.
      throw new ParseException(firstLine, "front matter is too deeply nested to read");
    } catch (MarkedYamlEngineException e) {
      int line = e.getProblemMark()
          .or(e::getContextMark)
          .map(m -> m.getLine() + firstLine)
          .orElse(firstLine);
      throw new ParseException(line, "invalid front matter: " + e.getProblem());
    } catch (YamlEngineException e) {
      throw new ParseException(firstLine, "invalid front matter: " + e.getMessage());
    }
    if (root.isEmpty()) {
      return new YamlNode.Mapping(Map.of(), firstLine);
    }
    YamlNode top = new YamlReader(firstLine).convert(root.get(), 0);
    if (!(top instanceof YamlNode.Mapping mapping)) {
      throw new ParseException(top.line(), "front matter must be a mapping of keys to values");
    }
    return mapping;
  }

  private YamlNode convert(Node node, int depth) throws ParseException {
    int line = line(node.getStartMark());
    if (--budget < 0 || depth > MAX_DEPTH) {
      throw new ParseException(line, "front matter is too large or too deeply nested");
    }
    // An instanceof chain, not a pattern switch: SnakeYAML's node classes are no sealed union, and
    // a type switch is linked at run time (outside the start-up cache) the first time a prompt file
    // is read.
    if (node instanceof ScalarNode s) {
      return new YamlNode.Scalar(s.getValue(), kind(s), line);
    }
    if (node instanceof SequenceNode s) {
      List<YamlNode> items = new ArrayList<>(s.getValue().size());
      for (Node item : s.getValue()) {
        items.add(convert(item, depth + 1));
      }
      return new YamlNode.Sequence(items, line);
    }
    if (node instanceof MappingNode m) {
      return mapping(m, line, depth);
    }
    throw new ParseException(line, "unsupported YAML node");
  }

  private YamlNode.Mapping mapping(MappingNode m, int line, int depth) throws ParseException {
    Map<String, YamlNode> entries = new LinkedHashMap<>();
    for (NodeTuple tuple : m.getValue()) {
      Node keyNode = tuple.getKeyNode();
      int keyLine = line(keyNode.getStartMark());
      if (!(keyNode instanceof ScalarNode key)) {
        throw new ParseException(keyLine, "front matter keys must be plain strings");
      }
      if (key.getTag().equals(Tag.MERGE)) {
        throw new ParseException(
            keyLine, "YAML merge keys ('<<') are not supported in front matter");
      }
      if (entries.put(key.getValue(), convert(tuple.getValueNode(), depth + 1)) != null) {
        throw new ParseException(keyLine, "duplicate key '" + key.getValue() + "'");
      }
    }
    return new YamlNode.Mapping(entries, line);
  }

  /** How the composer would type {@code text} written as a plain scalar. */
  static Kind kind(String text) {
    // The schema's resolvers are looked up by first character, and every one of them (null, bool,
    // int, float, env) needs one of these (or the empty string): any other start is a string
    // without running their regular expressions, which were the most frequent frames of a
    // 100,000-file load's parsing.
    if (JSON_SCHEMA && !text.isEmpty() && RESOLVED_FIRST.indexOf(text.charAt(0)) < 0) {
      return Kind.STRING;
    }
    return kind(SETTINGS.getSchema().getScalarResolver().resolve(text, true));
  }

  private static Kind kind(ScalarNode s) {
    return kind(s.getTag());
  }

  private static Kind kind(Tag tag) {
    if (tag.equals(Tag.INT)) {
      return Kind.INT;
    } else if (tag.equals(Tag.FLOAT)) {
      return Kind.FLOAT;
    } else if (tag.equals(Tag.BOOL)) {
      return Kind.BOOL;
    } else if (tag.equals(Tag.NULL)) {
      return Kind.NULL;
    }
    // Any other tag, including !!java.lang.Runtime and friends, is read as the plain text it
    // carries.
    return Kind.STRING;
  }

  private int line(Optional<Mark> mark) {
    return mark.map(m -> m.getLine() + firstLine).orElse(firstLine);
  }

  /**
   * SnakeYAML's parser, with its events counted as the composer pulls them. The composer recurses
   * once per level of nesting and has no depth limit of its own, so a few kilobytes of brackets
   * would overflow the stack of the thread reading them: the depth and the number of events are
   * checked here, before the composer goes deeper. The parser itself keeps its state on the heap,
   * whatever the nesting.
   */
  private static final class BoundedParser implements Parser {
    private final Parser parser;
    private final int firstLine;
    private int depth;
    private int events;

    BoundedParser(String yaml, int firstLine) {
      this.parser = new ParserImpl(SETTINGS, new StreamReader(SETTINGS, yaml));
      this.firstLine = firstLine;
    }

    @Override
    public boolean checkEvent(Event.ID choice) {
      return parser.checkEvent(choice);
    }

    @Override
    public Event peekEvent() {
      return parser.peekEvent();
    }

    @Override
    public boolean hasNext() {
      return parser.hasNext();
    }

    @Override
    public Event next() {
      Event event = parser.next();
      Event.ID id = event.getEventId();
      if (id == Event.ID.MappingStart || id == Event.ID.SequenceStart) {
        if (++depth > MAX_DEPTH + 1) {
          throw new TooLarge(
              line(event), "front matter is nested more than " + MAX_DEPTH + " levels deep");
        }
      } else if (id == Event.ID.MappingEnd || id == Event.ID.SequenceEnd) {
        depth--;
      }
      if (++events > MAX_EVENTS) {
        throw new TooLarge(
            line(event), "front matter has more than " + MAX_NODES + " keys and values");
      }
      return event;
    }

    private int line(Event event) {
      return event.getStartMark().map(m -> m.getLine() + firstLine).orElse(firstLine);
    }

    /** Thrown through the composer when a limit is passed; carries no stack trace. */
    static final class TooLarge extends RuntimeException {
      @Serial
      private static final long serialVersionUID = 1L;

      final int line;
      final String problem;

      TooLarge(int line, String problem) {
        super(problem, null, false, false);
        this.line = line;
        this.problem = problem;
      }
    }
  }
}
