package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Implementation;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The MCP clients whose limits promptd knows, each in the version it was seen in, and what each
 * does with a prompt. The server adapts to them by the name they report ({@code clientInfo.name});
 * {@code promptd check --clients} tells an author, per prompt, what each will do. One list, read by
 * both, so the two cannot drift apart. docs/clients.md shows each limit as seen.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class KnownClients {
  /** What a client does with prompts that the protocol does not ask of it. */
  public enum Limit {
    /**
     * The words typed after a slash command become the arguments in declared order, split at any
     * white space (U+3000 included) and without quoting: free text is cut to its first word, and
     * words past the last argument are dropped. promptd shows such values in its form for checking
     * ({@link FreeTextConfirmation#AUTO}).
     */
    SPLITS_TYPED_WORDS,
    /** Every message of a prompt reaches the model as the user's, its role dropped. */
    FLATTENS_ROLES,
    /**
     * Fetches a prompt once with placeholders as its argument values ({@code $1}, {@code $2}, …,
     * {@code $ARGUMENTS}) and puts the typed words in their place: promptd renders the placeholders
     * unchecked, so choices, types and patterns are not enforced there.
     */
    FETCHES_WITH_PLACEHOLDERS,
    /**
     * Asks {@code prompts/list} once and ignores {@code nextCursor}: promptd sends it one long
     * page.
     */
    READS_FIRST_PAGE_ONLY,
    /**
     * Uses only {@code messages[0]} of a prompt, and only when it is text: with
     * {@link PromptFolding#AUTO} promptd folds each prompt into one text message for it.
     */
    USES_FIRST_TEXT_MESSAGE_ONLY,
    /** Offers only prompts of at most one argument. */
    AT_MOST_ONE_ARGUMENT,
    /** Has commands of its own whose names a prompt's name can clash with. */
    HAS_OWN_COMMANDS,
    /**
     * Its command menu stops matching at the first character of a script other than Latin typed
     * after the server's prefix: such a prompt is picked from the menu or typed in full.
     */
    MENU_MATCHES_LATIN_ONLY
  }

  /**
   * The longest page promptd sends a client that {@linkplain Limit#READS_FIRST_PAGE_ONLY reads only
   * the first}.
   */
  public static final int ONE_PAGE_MAX = 10_000;

  /**
   * One client.
   *
   * @param title its name for people
   * @param version the version its limits were seen in ({@code source} when they were read from its
   *     source code only)
   * @param reportedName the {@code clientInfo.name} it reports (lower case), or null when promptd
   *     does not tell it apart on the wire
   * @param byPrefix whether that name is a prefix (the client adds the server's name to it)
   * @param limits what it does
   * @param ownCommands the names of its own commands, which a prompt's name can clash with
   * @param clashRule what it does with a prompt whose name clashes, in words ({@code NAME} stands
   *     for the prompt's name), or null when it has no own commands
   * @param seenInLane whether the real-client tests run it; else the limit was read from its source
   */
  public record Client(
      String title,
      String version,
      @Nullable String reportedName,
      boolean byPrefix,
      Set<Limit> limits,
      Set<String> ownCommands,
      @Nullable String clashRule,
      boolean seenInLane) {
    /** Checks and copies the fields. */
    public Client {
      requireNonNull(title, "title");
      requireNonNull(version, "version");
      limits = limits.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(limits));
      ownCommands = Set.copyOf(ownCommands);
    }

    /** Whether this is the client that reported {@code client}. */
    public boolean reported(@Nullable Implementation client) {
      if (client == null || reportedName == null) {
        return false;
      }
      String name = client.name().toLowerCase(Locale.ROOT);
      return byPrefix ? name.startsWith(reportedName) : name.equals(reportedName);
    }

    /**
     * Its title and the version seen, as {@code Gemini CLI 0.61.0}, or {@code Zed (from its source,
     * not run here)}.
     */
    public String seen() {
      return seenInLane ? title + " " + version : title + " (from its source, not run here)";
    }
  }

  /** Gemini CLI's top-level commands, read from its 0.61.0 bundle (some behind settings). */
  private static final Set<String> GEMINI_COMMANDS = Set.of(
      "about",
      "agents",
      "auth",
      "bug",
      "bug-memory",
      "chat",
      "clear",
      "commands",
      "compress",
      "copy",
      "corgi",
      "debug",
      "directory",
      "docs",
      "editor",
      "export-session",
      "extensions",
      "footer",
      "gemma",
      "help",
      "hooks",
      "ide",
      "init",
      "mcp",
      "memory",
      "model",
      "oncall",
      "permissions",
      "plan",
      "policies",
      "privacy",
      "profile",
      "quit",
      "restore",
      "resume",
      "rewind",
      "settings",
      "setup-github",
      "shortcuts",
      "skills",
      "stats",
      "tasks",
      "terminal-setup",
      "theme",
      "tools",
      "upgrade",
      "vim",
      "voice");

  private static final List<Client> ALL = List.of(
      new Client(
          "Claude Code",
          "2.1.332",
          "claude-code",
          false,
          Set.of(Limit.SPLITS_TYPED_WORDS, Limit.FLATTENS_ROLES, Limit.MENU_MATCHES_LATIN_ONLY),
          Set.of(),
          null,
          true),
      new Client(
          "Gemini CLI",
          "0.61.0",
          "gemini-cli-mcp-client",
          true,
          Set.of(
              Limit.READS_FIRST_PAGE_ONLY,
              Limit.USES_FIRST_TEXT_MESSAGE_ONLY,
              Limit.HAS_OWN_COMMANDS),
          GEMINI_COMMANDS,
          "it keeps /NAME for its own command and offers the prompt as /promptd.NAME",
          true),
      new Client(
          "Qwen Code",
          "0.24.4",
          "qwen-cli-mcp-client",
          true,
          Set.of(
              Limit.READS_FIRST_PAGE_ONLY,
              Limit.USES_FIRST_TEXT_MESSAGE_ONLY,
              Limit.HAS_OWN_COMMANDS),
          Set.of("review"),
          "its bundled /NAME skill takes the name, and the prompt is not offered as /NAME",
          true),
      new Client(
          "opencode",
          "1.18.33",
          "opencode",
          false,
          Set.of(Limit.FETCHES_WITH_PLACEHOLDERS),
          Set.of(),
          null,
          true),
      new Client(
          "Zed", "source", null, false, Set.of(Limit.AT_MOST_ONE_ARGUMENT), Set.of(), null, false));

  private KnownClients() {}

  /** Every client promptd knows, in a fixed order. */
  public static List<Client> all() {
    return ALL;
  }

  /** The known clients that have {@code limit}, in {@link #all()}'s order. */
  public static List<Client> with(Limit limit) {
    requireNonNull(limit, "limit");
    return ALL.stream().filter(c -> c.limits().contains(limit)).toList();
  }

  /** Whether the client that reported {@code client} is known to have {@code limit}. */
  public static boolean has(@Nullable Implementation client, Limit limit) {
    requireNonNull(limit, "limit");
    for (Client c : ALL) {
      if (c.limits().contains(limit) && c.reported(client)) {
        return true;
      }
    }
    return false;
  }
}
