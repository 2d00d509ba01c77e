package io.promptd.library.internal.skills;

import io.promptd.library.Diagnostic;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.PromptNames;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptRenderer;
import io.promptd.mcp.server.ServerText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Skills offered as prompts, for clients without the Skills extension: each skill is a prompt (a
 * slash command) named as a prompt file at its path would be ({@code ops/incident-review} is
 * {@code ops-incident-review}), whose one optional argument, {@code task}, says what to use it for.
 * Rendered, it is the skill's {@code SKILL.md} as an embedded resource, then each of its other
 * files in the skill's file order (its text embedded while a budget lasts, else a link: see
 * {@code SkillPromptFiles}), and the task. A prompt file of the same name wins; a skill whose front
 * matter says {@code user-invocable: false} (Claude Code's key for "not a slash command") is not
 * offered.
 *
 * <p>Holds which catalog names it put there, so that it changes only its own prompts; confined to
 * the library's lock.
 */
public final class SkillPrompts {
  /** The one argument of a skill's prompt. */
  static final String TASK = "task";

  /**
   * The front matter key that, set to {@code false}, keeps a skill from being offered as a prompt.
   */
  static final String USER_INVOCABLE = "user-invocable";

  private final Function<String, Optional<List<ResourceContents>>> reader;
  private final FileReader files;
  private final long budget;
  /** The words of the listing a person reads (the {@code task} argument's description). */
  private final ServerText text;
  /** The skill behind each prompt this put into the catalog, by prompt name. */
  private final Map<String, SkillFolder> served = new HashMap<>();

  private List<Diagnostic> diagnostics = List.of();

  /**
   * @param reader reads a skill file by URI, as {@code resources/read} does: the {@code SKILL.md}
   * @param files reads a skill's other files' bytes for embedding: null for one that cannot be read
   *     now, is larger than the limit given, or lies outside its skill's folder
   * @param budget the bytes of a skill's other files one rendering embeds at most; 0 links them all
   * @param text the words of the listing a person reads
   * @throws IllegalArgumentException when {@code budget} is negative
   */
  public SkillPrompts(
      Function<String, Optional<List<ResourceContents>>> reader,
      FileReader files,
      long budget,
      ServerText text) {
    if (budget < 0) {
      throw new IllegalArgumentException(
          "SkillPrompts: budget must not be negative, not " + budget);
    }
    this.reader = reader;
    this.files = files;
    this.budget = budget;
    this.text = text;
  }

  /** Reads one of a skill's files, other than its {@code SKILL.md}, for the skill's prompt. */
  @FunctionalInterface
  public interface FileReader {
    /**
     * The bytes of {@code file} of {@code skill}, at most {@code limit}; null when it cannot be
     * read now, holds more, or lies outside the skill's folder once links are resolved.
     */
    byte @Nullable [] read(SkillFolder skill, SkillFile file, long limit);
  }

  /** The skill behind each prompt this put into the catalog, by prompt name (a copy). */
  public Map<String, SkillFolder> served() {
    return Map.copyOf(served);
  }

  /** Forgets the prompts put into the catalog: the caller has just replaced every prompt in it. */
  public void forget() {
    served.clear();
  }

  /**
   * Makes {@code editor}'s catalog offer {@code skills} as prompts (none when {@code offered} is
   * false): adds, replaces or removes only the prompts this put there, and leaves every name a
   * prompt file serves to that file. Run after the prompt files' own changes were applied to
   * {@code editor}.
   *
   * @param byFiles the names the prompt files' changes just put or removed: none of them is this
   *     one's any more (a file took the name over, or its removal took this one's prompt with it)
   */
  public void sync(
      PromptCatalog.Editor editor,
      List<SkillFolder> skills,
      boolean offered,
      Collection<String> byFiles) {
    served.keySet().removeAll(byFiles);
    Map<String, SkillFolder> wanted = new LinkedHashMap<>();
    List<Diagnostic> problems = new ArrayList<>();
    for (SkillFolder skill : offered ? skills : List.<SkillFolder>of()) {
      if (Boolean.FALSE.equals(skill.frontMatter().get(USER_INVOCABLE))) {
        continue;
      }
      String name = name(skill);
      SkillFolder first = wanted.get(name);
      if (first != null) {
        problems.add(Diagnostic.warning(
            skill.file(),
            1,
            "skill '" + skill.path()
                + "' is not offered as a prompt: skill '" + first.path() + "' is offered as '"
                + name
                + "'"));
      } else if (editor.contains(name) && !served.containsKey(name)) {
        problems.add(Diagnostic.warning(
            skill.file(),
            1,
            "skill '" + skill.path() + "' is not offered as a prompt: a prompt file is named '"
                + name + "'"));
      } else {
        wanted.put(name, skill);
      }
    }
    for (String name : List.copyOf(served.keySet())) {
      if (!wanted.containsKey(name)) {
        editor.remove(name);
        served.remove(name);
      }
    }
    wanted.forEach((name, skill) -> {
      if (!skill.equals(served.get(name))) {
        editor.put(definition(name, skill));
        served.put(name, skill);
      }
    });
    diagnostics = List.copyOf(problems);
  }

  /**
   * The skills the last {@link #sync} could not offer, and why: warnings at their {@code SKILL.md}.
   */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }

  /** The prompt name of {@code skill}: its path's segments, joined as a prompt file's would be. */
  static String name(SkillFolder skill) {
    try {
      return PromptNames.derive(Arrays.asList(skill.path().split("/")));
    } catch (ParseException e) {
      // A skill's path ends in its name, which the format limits to a-z, 0-9 and '-': never empty.
      return skill.name();
    }
  }

  private PromptDefinition definition(String name, SkillFolder skill) {
    Object hint = skill.frontMatter().get("argument-hint");
    String about = hint instanceof String s && !s.isBlank() ? s : text.get("skill.task");
    Prompt prompt = new Prompt(
        name,
        skill.name() + " (skill)",
        skill.description(),
        List.of(PromptArgument.optional(TASK, about)),
        List.of(),
        null);
    return new PromptDefinition(
        prompt, new Renderer(skill, reader, files, budget), null, skill.scopes());
  }

  /** Renders one skill's prompt from its files as they are read now. */
  private record Renderer(
      SkillFolder skill,
      Function<String, Optional<List<ResourceContents>>> reader,
      FileReader files,
      long budget)
      implements PromptRenderer {
    @Override
    public GetPromptResult render(Map<String, String> arguments) {
      String uri = LibrarySkills.uri(skill.path(), "SKILL.md");
      List<ResourceContents> contents = reader
          .apply(uri)
          .filter(c -> !c.isEmpty())
          .orElseThrow(() -> new McpException(
              ErrorCodes.INTERNAL_ERROR, "skill '" + skill.path() + "': SKILL.md cannot be read"));
      List<PromptMessage> messages = new ArrayList<>();
      messages.add(user(new EmbeddedResource(contents.getFirst(), null, null)));
      for (Content c : SkillPromptFiles.contents(skill, files, budget)) {
        messages.add(user(c));
      }
      @Nullable String task = arguments.get(TASK);
      messages.add(PromptMessage.user(
          task == null || task.isBlank()
              ? "Follow the skill '" + skill.name() + "' above."
              : "Use the skill '" + skill.name() + "' above for this task:\n\n" + task));
      return GetPromptResult.of(skill.description(), messages);
    }

    private static PromptMessage user(Content content) {
      return new PromptMessage(Role.USER, content);
    }
  }
}
