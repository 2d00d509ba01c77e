package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.McpException;
import java.io.Serial;
import java.util.List;

/**
 * A -32602 for prompt arguments a user could supply: required ones that are missing, or values that
 * break their declared rules. Where the client can show a form (elicitation) and neither the prompt
 * nor the server opted out, the server asks the user for {@link #questions()} instead of sending
 * this error; elsewhere it is the error, with its message. Renderers throw it for values they
 * reject; the server throws it for missing required arguments.
 */
@Stability(Stability.Tier.STABLE)
public final class ArgumentsNeeded extends McpException {
  @Serial
  private static final long serialVersionUID = 1L;

  /**
   * One argument to ask for, and why, in words for the user ({@code "is required"}, {@code "must be
   * an integer"}).
   */
  public record Question(ArgumentField field, String reason) {
    /** Checks the fields. */
    public Question {
      requireNonNull(field, "field");
      requireNonNull(reason, "reason");
    }
  }

  private final transient List<Question> questions;

  /**
   * @param message the error's message, as it goes on the wire when the server cannot ask
   * @param questions the arguments to ask for (at least one)
   */
  public ArgumentsNeeded(String message, List<Question> questions) {
    super(ErrorCodes.INVALID_PARAMS, message, null);
    this.questions = List.copyOf(questions);
    if (this.questions.isEmpty()) {
      throw new IllegalArgumentException("ArgumentsNeeded needs at least one question");
    }
  }

  /** The arguments to ask for, in the prompt's order. */
  public List<Question> questions() {
    return questions;
  }
}
