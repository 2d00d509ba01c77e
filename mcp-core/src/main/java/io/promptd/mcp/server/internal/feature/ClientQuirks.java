package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.server.FreeTextConfirmation;
import io.promptd.mcp.server.KnownClients;
import io.promptd.mcp.server.KnownClients.Limit;
import io.promptd.mcp.server.PromptFolding;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What promptd does about known limits of particular clients ({@link KnownClients}, which names
 * them, the version each was seen in and how they are recognised by {@code clientInfo.name}); each
 * one is seen in the real client by the real-client tests (docs/clients.md).
 */
final class ClientQuirks {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$(?:[1-9][0-9]?|ARGUMENTS)");

  private ClientQuirks() {}

  /**
   * Whether {@code client} cuts typed argument text at spaces; promptd shows such values in its
   * form for checking ({@link FreeTextConfirmation#AUTO}).
   */
  static boolean cutsTextAtSpaces(@Nullable Implementation client) {
    return KnownClients.has(client, Limit.SPLITS_TYPED_WORDS);
  }

  /**
   * The arguments whose values are placeholders to render as they are, for {@code client}; usually
   * none. A placeholder is no valid value for an argument with choices, a type or a pattern, so
   * such prompts would never render in a client that fetches this way.
   */
  static Set<String> placeholders(@Nullable Implementation client, Map<String, String> arguments) {
    if (!KnownClients.has(client, Limit.FETCHES_WITH_PLACEHOLDERS)) {
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
   * The page size for {@code client}'s listings: {@code pageSize}, or one long page, up to
   * {@value KnownClients#ONE_PAGE_MAX} prompts, for a client that reads only the first.
   */
  static int pageSize(@Nullable Implementation client, int pageSize) {
    return KnownClients.has(client, Limit.READS_FIRST_PAGE_ONLY)
        ? Math.max(pageSize, KnownClients.ONE_PAGE_MAX)
        : pageSize;
  }

  /**
   * Whether {@code client} uses only the first message of a prompt, and only when it is text; with
   * {@link PromptFolding#AUTO} it gets each prompt folded into one text message
   * ({@link PromptFold}).
   */
  static boolean readsFirstMessageOnly(@Nullable Implementation client) {
    return KnownClients.has(client, Limit.USES_FIRST_TEXT_MESSAGE_ONLY);
  }
}
