package io.promptd.cli;

import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What {@code serve} and {@code check} say of prompts that require scopes where no OAuth is there
 * to apply them: every caller sees them.
 */
final class ScopeNote {
  /** The most names said before "and N more". */
  private static final int NAMES = 5;

  private ScopeNote() {}

  /** {@code 2 prompt(s) require scopes (audit, ops/rotate)}; "and N more" past five names. */
  static String prompts(List<String> names) {
    String shown = String.join(", ", names.subList(0, Math.min(NAMES, names.size())));
    return names.size() + " prompt(s) require scopes (" + shown
        + (names.size() > NAMES ? " and " + (names.size() - NAMES) + " more" : "") + ")";
  }

  /**
   * The start-up warning of an HTTP server without OAuth whose prompts require scopes, or null when
   * none does.
   *
   * @param token whether a static token guards the server
   */
  static @Nullable String serving(PromptCatalog prompts, boolean token) {
    List<String> scoped = prompts.all().stream()
        .filter(p -> !p.requiredScopes().isEmpty())
        .map(PromptDefinition::name)
        .sorted()
        .toList();
    return scoped.isEmpty()
        ? null
        : "promptd: warning: " + prompts(scoped)
            + ", but scopes apply only with OAuth (--oauth-issuer): "
            + (token ? "every holder of the token" : "every caller") + " sees them"
            + " (docs/deploy.md, \"Who sees which prompt\")";
  }
}
