package io.promptd.mcp.server;

import io.promptd.mcp.api.Stability;

/**
 * Form-first arguments: for a client that can show a form (it declared form elicitation, and the
 * server may ask), a prompt's arguments are listed as optional, so the client lets a bare slash
 * command through, and the server asks for what is missing in one form — every declared argument
 * without a valid value yet, required ones first, choices, defaults and descriptions included —
 * instead of the client refusing the command. Clients that cannot show a form see the prompts
 * exactly as declared and get -32602 for what is missing.
 *
 * <p>Prompts and arguments opt out through their {@code _meta}, which the prompt library writes
 * from the front matter (and any server author may set): {@value #FORM_META} {@code {"first":
 * false}} keeps a prompt's required flags, and {@code "confirm": true|false} overrides the server's
 * {@link FreeTextConfirmation} for it; in {@value #ARGUMENTS_META}, an argument's
 * {@code "formFirst": false} keeps its required flag and {@code "confirm"} overrides the prompt's.
 * Both are read from the listed metadata, so listing never needs more of a prompt than its
 * metadata. (The server's rules for all this are internal; this class names the metadata keys.)
 */
@Stability(Stability.Tier.STABLE)
public final class ArgumentForms {
  /** The prompt {@code _meta} key of the prompt-level settings ({@code first}, {@code confirm}). */
  public static final String FORM_META = "io.promptd/form";
  /**
   * The prompt {@code _meta} key under which arguments' rules and settings are published, by
   * argument name.
   */
  public static final String ARGUMENTS_META = "io.promptd/arguments";

  private ArgumentForms() {}
}
