package io.promptd.mcp.client;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import java.io.IOException;
import java.util.Set;

/**
 * Shows the user a form the server asks for (elicitation, form mode) and returns what they did: a
 * 2026-07-28 server that needs more from the user — a prompt's missing or invalid arguments —
 * answers {@code input_required} with an {@code elicitation/create} request;
 * {@link McpClient#getPrompt(String, java.util.Map, FormHandler)} passes it here and retries with
 * the answer. A legacy server sends {@code elicitation/create} itself, to a session whose
 * {@link ClientOptions#forms()} is set; it may come while any request is waiting, and on a thread
 * of its own.
 */
@FunctionalInterface
@Stability(Stability.Tier.STABLE)
public interface FormHandler {
  /**
   * Asks the user.
   *
   * @param message what the server says it needs and why
   * @param requestedSchema the form: a flat JSON Schema object whose {@code properties} are string,
   *     number, integer or boolean fields (a string field may carry {@code enum} or {@code oneOf}
   *     choices)
   * @return the user's answer
   * @throws IOException when the user cannot be asked (the request fails with it)
   */
  Answer answer(String message, JsonObject requestedSchema) throws IOException;

  /**
   * What the user did with a form.
   *
   * @param action {@code accept}, {@code decline} or {@code cancel}
   * @param content the values entered, by field name, when accepted; empty otherwise
   */
  record Answer(String action, JsonObject content) {
    private static final Set<String> ACTIONS = Set.of("accept", "decline", "cancel");

    /** Checks the fields. */
    public Answer {
      requireNonNull(content, "content");
      if (!ACTIONS.contains(action)) {
        throw new IllegalArgumentException(
            "action must be accept, decline or cancel, not " + action);
      }
    }

    /** The user filled the form in. */
    public static Answer accept(JsonObject content) {
      return new Answer("accept", content);
    }

    /** The user said no. */
    public static Answer decline() {
      return new Answer("decline", JsonObject.EMPTY);
    }

    /** The user dismissed the form without choosing. */
    public static Answer cancel() {
      return new Answer("cancel", JsonObject.EMPTY);
    }
  }
}
