package io.promptd.mcp.server.internal.method;

/**
 * What the features ask of the era a request is served in: whether its client can be shown forms,
 * how a prompt's missing arguments are asked for, which code a missing resource gets, whether
 * results carry caching hints. Each era hands its rules to the {@link MethodCall}s it builds, so a
 * feature asks the question instead of checking the era.
 */
public interface EraRules {
  /**
   * Whether {@code call}'s client can be shown forms: a listing may then be form-first, required
   * arguments that may wait for the form listed as optional.
   */
  boolean showsForms(MethodCall call);

  /** How {@code prompts/get} gets the arguments {@code call} is missing. */
  Asking asking(MethodCall call);

  /** The error code of {@code resources/read} for a resource that is not found. */
  int resourceNotFound();

  /** Whether listings and reads carry the caching hints {@code ttlMs} and {@code cacheScope}. */
  boolean cacheHints();

  /** How a prompt's missing or invalid arguments are asked for. */
  enum Asking {
    /**
     * With an {@code elicitation/create} request to the client over the request's own stream,
     * waiting for the answer (a legacy session).
     */
    ELICIT,
    /** With an {@code InputRequiredResult} the client answers by retrying (2026-07-28). */
    INPUT_REQUIRED,
    /** Not at all: the request is refused, naming what is missing. */
    NEVER
  }
}
