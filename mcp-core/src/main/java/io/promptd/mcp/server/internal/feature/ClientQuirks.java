package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.FreeTextConfirmation;
import io.promptd.mcp.server.PromptFolding;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What promptd does about known limits of particular clients, recognised by the name they report
 * ({@code clientInfo.name}); each one is seen in the real client by the real-client tests
 * (docs/clients.md). The one place that knows clients by name.
 */
final class ClientQuirks {
  /**
   * Claude Code passes the words typed after a slash command as the arguments in order, split at
   * spaces: free text is cut to its first word. promptd shows such values in its form for checking
   * ({@link FreeTextConfirmation#AUTO}).
   */
  private static final Set<String> CUT_AT_SPACES = Set.of("claude-code");

  /**
   * opencode fetches a prompt once with placeholders as its argument values ({@code $1},
   * {@code $2}, … and {@code $ARGUMENTS}) and puts the typed words in their place in the rendered
   * text. A placeholder is no valid value for an argument with choices, a type or a pattern, so
   * such prompts would never render there; promptd renders the placeholders as they are, unchecked,
   * and the words the user types take their place.
   */
  private static final Set<String> PLACEHOLDER_FETCHERS = Set.of("opencode");

  /**
   * Gemini CLI and Qwen Code ask {@code prompts/list} once and ignore {@code nextCursor}: a prompt
   * past the first page is never offered. They get the whole list in one page, up to
   * {@value #ONE_PAGE_MAX} prompts. (clientInfo names: {@code gemini-cli-mcp-client},
   * {@code qwen-cli-mcp-client-SERVER}.)
   */
  private static final Set<String> FIRST_PAGE_ONLY =
      Set.of("gemini-cli-mcp-client", "qwen-cli-mcp-client");

  /**
   * Gemini CLI (0.61) and Qwen Code (0.24) use only {@code messages[0]} of a {@code prompts/get}
   * result, and only when it is text: the rest never reaches their model, and a first message of
   * another kind is "an empty or invalid prompt response". With {@link PromptFolding#AUTO} they get
   * each prompt folded into one text message ({@link PromptFold}). (Name prefixes, as
   * {@link #FIRST_PAGE_ONLY}'s.)
   */
  private static final Set<String> FIRST_MESSAGE_ONLY =
      Set.of("gemini-cli-mcp-client", "qwen-cli-mcp-client");

  /** The longest page a client that reads only the first one gets. */
  static final int ONE_PAGE_MAX = 10_000;

  private static final Pattern PLACEHOLDER = Pattern.compile("\\$(?:[1-9][0-9]?|ARGUMENTS)");

  private ClientQuirks() {}

  /** Whether {@code client} cuts typed argument text at spaces. */
  static boolean cutsTextAtSpaces(@Nullable Implementation client) {
    return known(CUT_AT_SPACES, client);
  }

  /**
   * The arguments whose values are placeholders to render as they are, for {@code client}; usually
   * none.
   */
  static Set<String> placeholders(@Nullable Implementation client, Map<String, String> arguments) {
    if (!known(PLACEHOLDER_FETCHERS, client)) {
      return Set.of();
    }
    Set<String> out = new HashSet<>();
    arguments.forEach((name, value) -> {
      if (PLACEHOLDER.matcher(value).matches()) {
        out.add(name);
      }
    });
    return out;
  }

  /**
   * The page size for {@code client}'s listings: {@code pageSize}, or one long page for a client
   * that reads one.
   */
  static int pageSize(@Nullable Implementation client, int pageSize) {
    return prefixed(FIRST_PAGE_ONLY, client) ? Math.max(pageSize, ONE_PAGE_MAX) : pageSize;
  }

  /** Whether {@code client} uses only the first message of a prompt, and only when it is text. */
  static boolean readsFirstMessageOnly(@Nullable Implementation client) {
    return prefixed(FIRST_MESSAGE_ONLY, client);
  }

  private static boolean prefixed(Set<String> prefixes, @Nullable Implementation client) {
    if (client == null) {
      return false;
    }
    String name = client.name().toLowerCase(Locale.ROOT);
    for (String prefix : prefixes) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  private static boolean known(Set<String> names, @Nullable Implementation client) {
    return client != null && names.contains(client.name().toLowerCase(Locale.ROOT));
  }
}
