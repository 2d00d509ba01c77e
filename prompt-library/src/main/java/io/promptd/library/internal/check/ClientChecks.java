package io.promptd.library.internal.check;

import io.promptd.library.Diagnostic;
import io.promptd.library.parse.ArgType;
import io.promptd.library.parse.ArgumentSpec;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.template.Part;
import io.promptd.library.parse.template.Speaker;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.server.KnownClients;
import io.promptd.mcp.server.KnownClients.Client;
import io.promptd.mcp.server.KnownClients.Limit;
import io.promptd.mcp.server.PromptFolding;
import java.lang.Character.UnicodeScript;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * What each {@linkplain KnownClients known client} will do with a prompt, as warnings at the line
 * they concern, for {@code promptd check --clients}: an author sees before the users do that a
 * client drops a message, cuts typed text, renames the command or does not offer the prompt.
 */
public final class ClientChecks {
  private ClientChecks() {}

  /** The warnings for {@code prompts}, each file's in the order of its lines. */
  public static List<Diagnostic> of(List<PromptFile> prompts) {
    List<Diagnostic> out = new ArrayList<>();
    for (PromptFile p : prompts) {
      firstTextMessageOnly(p, out);
      flattenedRoles(p, out);
      splitTypedWords(p, out);
      placeholders(p, out);
      oneArgument(p, out);
      ownCommands(p, out);
      latinMenu(p, out);
    }
    return out;
  }

  /**
   * A warning at {@code folder} when a library of more prompts than a client that reads one page
   * takes would lose the rest there; none otherwise.
   */
  public static List<Diagnostic> firstPageOnly(Path folder, int prompts) {
    if (prompts <= KnownClients.ONE_PAGE_MAX) {
      return List.of();
    }
    return List.of(Diagnostic.warning(
        folder,
        0,
        seen(Limit.READS_FIRST_PAGE_ONLY)
            + " read only the first page of prompts: promptd sends them one page of "
            + KnownClients.ONE_PAGE_MAX
            + ", so "
            + (prompts - KnownClients.ONE_PAGE_MAX)
            + " of these "
            + prompts
            + " prompts are never offered there"));
  }

  private static void firstTextMessageOnly(PromptFile p, List<Diagnostic> out) {
    List<Part> messages = messages(p);
    boolean firstIsText = !messages.isEmpty() && messages.get(0) instanceof Part.Text;
    if (messages.size() <= 1 && firstIsText) {
      return;
    }
    Part lost = firstIsText ? messages.get(1) : messages.get(0);
    String clients = seen(Limit.USES_FIRST_TEXT_MESSAGE_ONLY);
    String what = messages.size()
        + (messages.size() == 1 ? " message" : " messages")
        + (firstIsText ? "" : ", the first not text,");
    if (folding(p) == PromptFolding.NEVER) {
      out.add(Diagnostic.warning(
          p.file(),
          line(lost),
          clients
              + " use only the first message of a prompt, and only when it is text: with fold: never"
              + " this prompt of "
              + what
              + (firstIsText
                  ? " reaches their model as its first message only"
                  : " is refused there as an empty prompt")));
      return;
    }
    out.add(Diagnostic.warning(
        p.file(),
        line(lost),
        clients
            + " use only the first message of a prompt, and only when it is text: promptd folds"
            + " this prompt of "
            + what
            + " into one text message for them (images, audio and links as one-line references;"
            + " fold: never turns this off)"));
  }

  private static void flattenedRoles(PromptFile p, List<Diagnostic> out) {
    for (Part part : p.parts()) {
      if (role(part) == Role.ASSISTANT) {
        out.add(Diagnostic.warning(
            p.file(),
            line(part),
            seen(Limit.FLATTENS_ROLES)
                + " sends every message of a prompt as the user's: this assistant message reaches"
                + " its model as user text"));
        return;
      }
    }
  }

  private static void splitTypedWords(PromptFile p, List<Diagnostic> out) {
    List<ArgumentSpec> free =
        p.arguments().stream().filter(ClientChecks::takesFreeText).toList();
    if (free.isEmpty()) {
      return;
    }
    out.add(Diagnostic.warning(
        p.file(),
        free.get(0).line(),
        seen(Limit.SPLITS_TYPED_WORDS)
            + " splits the words typed after the command at white space (U+3000 too), one word"
            + " per argument in order: a value typed for "
            + quoted(free)
            + " is cut to its first word"
            + (p.elicit()
                ? "; promptd shows it in its form for checking"
                : ", and with elicit: false no form lets the user fix it")));
  }

  private static void placeholders(PromptFile p, List<Diagnostic> out) {
    List<ArgumentSpec> checked =
        p.arguments().stream().filter(ClientChecks::hasRules).toList();
    if (checked.isEmpty()) {
      return;
    }
    out.add(Diagnostic.warning(
        p.file(),
        checked.get(0).line(),
        seen(Limit.FETCHES_WITH_PLACEHOLDERS)
            + " puts the typed words into the rendered text itself, unchecked: the rules of "
            + quoted(checked)
            + " (type, choices, pattern) are not enforced there"));
  }

  private static void oneArgument(PromptFile p, List<Diagnostic> out) {
    if (p.arguments().size() < 2) {
      return;
    }
    out.add(Diagnostic.warning(
        p.file(),
        p.arguments().get(1).line(),
        seen(Limit.AT_MOST_ONE_ARGUMENT)
            + " offers only prompts of at most one argument: this one, of "
            + p.arguments().size()
            + ", is not offered there"));
  }

  private static void ownCommands(PromptFile p, List<Diagnostic> out) {
    for (Client c : KnownClients.with(Limit.HAS_OWN_COMMANDS)) {
      if (c.ownCommands().contains(p.name()) && c.clashRule() != null) {
        out.add(Diagnostic.warning(
            p.file(),
            p.nameLine(),
            c.seen()
                + " has a /"
                + p.name()
                + " of its own: "
                + c.clashRule().replace("NAME", p.name())
                + " (a name: in the front matter renames the prompt)"));
      }
    }
  }

  private static void latinMenu(PromptFile p, List<Diagnostic> out) {
    if (p.name().codePoints().allMatch(ClientChecks::latinOrCommon)) {
      return;
    }
    out.add(Diagnostic.warning(
        p.file(),
        p.nameLine(),
        seen(Limit.MENU_MATCHES_LATIN_ONLY)
            + " stops matching its command menu at the first character of another script than"
            + " Latin typed after the server's prefix: pick '"
            + p.name()
            + "' from the menu, or type the whole command"));
  }

  /** The parts that become messages: system text goes into the first user message. */
  private static List<Part> messages(PromptFile p) {
    List<Part> out = new ArrayList<>();
    boolean system = false;
    for (Part part : p.parts()) {
      if (part instanceof Part.Text t && t.speaker() == Speaker.SYSTEM) {
        system = true;
        continue;
      }
      out.add(part);
    }
    if (out.isEmpty() && system) {
      out.add(p.parts().get(0));
    }
    return out;
  }

  private static boolean takesFreeText(ArgumentSpec a) {
    return a.type() == ArgType.STRING && a.enumValues().isEmpty();
  }

  private static boolean hasRules(ArgumentSpec a) {
    return a.type() != ArgType.STRING || !a.enumValues().isEmpty() || a.pattern() != null;
  }

  private static boolean latinOrCommon(int codePoint) {
    UnicodeScript script = UnicodeScript.of(codePoint);
    return script == UnicodeScript.LATIN
        || script == UnicodeScript.COMMON
        || script == UnicodeScript.INHERITED;
  }

  private static @Nullable PromptFolding folding(PromptFile p) {
    JsonObject meta = p.prompt().meta();
    return meta != null && meta.get(PromptFolding.META) instanceof JsonString s
        ? PromptFolding.of(s.value()).orElse(null)
        : null;
  }

  private static Role role(Part part) {
    return switch (part) {
      case Part.Text t -> t.speaker().role();
      case Part.Fixed f -> f.role();
      case Part.InlineResource r -> r.role();
      case Part.Link l -> l.role();
    };
  }

  private static int line(Part part) {
    return switch (part) {
      case Part.Text t -> t.line();
      case Part.Fixed f -> f.line();
      case Part.InlineResource r -> r.line();
      case Part.Link l -> l.line();
    };
  }

  private static String quoted(List<ArgumentSpec> arguments) {
    return arguments.stream().map(a -> "'" + a.name() + "'").collect(Collectors.joining(", "));
  }

  /** The clients that have {@code limit}, with the versions seen: {@code A 1.0 and B 2.0}. */
  private static String seen(Limit limit) {
    List<String> seen = KnownClients.with(limit).stream().map(Client::seen).toList();
    return seen.size() == 1
        ? seen.get(0)
        : String.join(", ", seen.subList(0, seen.size() - 1)) + " and " + seen.getLast();
  }
}
