package io.promptd.mcp.server;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.GetPromptResult;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Turns a prompt's arguments into messages.
 *
 * <p>The server has already checked that every required argument is present and that no undeclared
 * one is. A renderer that rejects a value throws {@link io.promptd.mcp.jsonrpc.McpException} with
 * code -32602 — preferably its kind {@link ArgumentsNeeded}, naming the arguments a user could
 * correct, so that a client able to show a form is asked for them; any other exception becomes
 * -32603 with a safe message, and its details go to the log only.
 */
@FunctionalInterface
@Stability(Stability.Tier.STABLE)
public interface PromptRenderer {
  /**
   * Renders the prompt.
   *
   * @param arguments the arguments supplied, by name
   * @return the rendered prompt
   * @throws Exception when rendering fails
   */
  GetPromptResult render(Map<String, String> arguments) throws Exception;

  /**
   * Renders the prompt with the arguments named in {@code verbatim} taken as they are, unchecked:
   * placeholders that a client puts its user's words in place of after rendering (opencode fetches
   * a prompt with {@code $1}, {@code $2}, …). The default renders as {@link #render(Map)} does,
   * which may refuse them.
   *
   * @param arguments the arguments supplied, by name
   * @param verbatim the names of the arguments whose values go into the text unchecked
   * @return the rendered prompt
   * @throws Exception when rendering fails
   */
  default GetPromptResult render(Map<String, String> arguments, Set<String> verbatim)
      throws Exception {
    return render(arguments);
  }

  /**
   * Whether rendering may block (on I/O, a lock, a remote call). A renderer that returns false must
   * finish promptly without blocking: transports may then run its requests on the thread that reads
   * messages, which keeps answers in order and saves two thread hand-offs per request. The default
   * is the safe answer, true.
   */
  default boolean mayBlock() {
    return true;
  }

  /**
   * How {@code argument} is asked for in a form, or null for a plain text field made from the
   * prompt's declaration. The default is null.
   */
  default @Nullable ArgumentField field(String argument) {
    return null;
  }

  /**
   * The values among {@code arguments} that break their argument's rules, without rendering: one
   * question per such argument, its reason in words for the user. The server calls it before
   * rendering when it can ask the user, so that one form asks for everything at once. The default,
   * no checks, leaves the rules to {@link #render}.
   *
   * @param arguments the arguments supplied, by name (required ones may be missing)
   */
  default List<ArgumentsNeeded.Question> check(Map<String, String> arguments) {
    return List.of();
  }

  /**
   * Whether the server may ask the user for missing or invalid arguments of this prompt
   * (elicitation) instead of answering -32602. The default is true; a prompt whose arguments must
   * come from the caller opts out.
   */
  default boolean elicits() {
    return true;
  }
}
