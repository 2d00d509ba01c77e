package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Implementation;
import java.time.Duration;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One {@code prompts/get} of a prompt the server serves (a skill's prompt too), for usage counts:
 * which prompt, which client, how it ended and how long it took. A request naming a prompt the
 * caller cannot see raises none (it is answered as an unknown name, and the name is the client's,
 * unbounded). {@link McpServer.Builder#onPromptUse} receives them on the request's thread after the
 * answer is made, so listeners must be quick and must not block.
 *
 * @param prompt the prompt's name, one the catalog held when the request arrived
 * @param client the client's self-reported name and version, or null when it gave none
 * @param outcome how it ended
 * @param duration from the start of serving to the answer (rounds of a legacy form included)
 * @param variant the tag of the {@link PromptSplit} variant the caller got, or null when the prompt
 *     is not split
 */
@Stability(Stability.Tier.STABLE)
public record PromptUse(
    String prompt,
    @Nullable Implementation client,
    Outcome outcome,
    Duration duration,
    @Nullable String variant) {
  /** Checks the fields. */
  public PromptUse {
    requireNonNull(prompt, "prompt");
    requireNonNull(outcome, "outcome");
    requireNonNull(duration, "duration");
  }

  /** The use of a prompt that is not split. */
  public PromptUse(
      String prompt, @Nullable Implementation client, Outcome outcome, Duration duration) {
    this(prompt, client, outcome, duration, null);
  }

  /** How a {@code prompts/get} ended. */
  public enum Outcome {
    /** Rendered: the client got the prompt's messages. */
    RENDERED,
    /** Refused with -32602 (arguments missing, unknown or invalid, and no form was asked). */
    REFUSED,
    /** Answered with a form asking for the arguments (a 2026-07-28 {@code InputRequiredResult}). */
    FORM_ASKED,
    /** The user declined or cancelled the form asking for the arguments. */
    FORM_DECLINED,
    /** Any other error: the renderer failed, the request was cancelled, ... */
    ERROR;

    /**
     * The outcome's lower-case name, for metrics and tables ({@code rendered}, {@code form_asked},
     * ...).
     */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }
}
