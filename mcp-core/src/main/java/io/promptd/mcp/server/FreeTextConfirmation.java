package io.promptd.mcp.server;

import io.promptd.mcp.api.Stability;

/**
 * Whether the form that asks for a prompt's arguments also shows the free-text values a client did
 * pass, filled in, so that the user sees them before the prompt is used. Some clients cut what the
 * user typed after a slash command at the first space (Claude Code passes {@code good} for
 * {@code good morning}); a value cut that way is valid, so nothing else would ever show it. Free
 * text is a string argument with no choices and no pattern. It is shown once: in the first form of
 * a request, never again after the user answered.
 */
@Stability(Stability.Tier.STABLE)
public enum FreeTextConfirmation {
  /**
   * For clients known to cut typed arguments at spaces (Claude Code); never for others. The
   * default.
   */
  AUTO,
  /** For every client that can show a form. */
  ALWAYS,
  /** Never: a value the client passed is used as it is. */
  NEVER
}
