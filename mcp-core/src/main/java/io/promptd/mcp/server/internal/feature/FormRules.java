package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentForms;
import io.promptd.mcp.server.ArgumentsNeeded;
import io.promptd.mcp.server.FreeTextConfirmation;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.ServerText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The server's form-first rules ({@link ArgumentForms} describes them to server authors): how a
 * request from a client that can show forms is asked for a prompt's arguments, and how its listing
 * shows them.
 */
final class FormRules {
  private final boolean formFirst;
  private final FreeTextConfirmation confirmation;
  private final ServerText text;

  FormRules(boolean formFirst, FreeTextConfirmation confirmation, ServerText text) {
    this.formFirst = formFirst;
    this.confirmation = confirmation;
    this.text = text;
  }

  /**
   * How one request may ask: whether its listing and rendering are form-first, and whether given
   * free text is shown for checking in its first form, and the server's texts (a prompt may choose
   * its own language).
   */
  record Ask(boolean formFirst, boolean confirm, ServerText text) {}

  /**
   * How a request from a client that can show forms may ask, or null when it cannot ({@code canAsk}
   * false).
   *
   * @param firstRound whether no form has been answered for this request yet (free text is shown
   *     only then)
   */
  @Nullable
  Ask ask(boolean canAsk, @Nullable Implementation client, boolean firstRound) {
    if (!canAsk) {
      return null;
    }
    boolean confirm = firstRound
        && switch (confirmation) {
          case ALWAYS -> true;
          case NEVER -> false;
          case AUTO -> ClientQuirks.cutsTextAtSpaces(client);
        };
    return new Ask(formFirst, confirm, text);
  }

  /**
   * Whether a listing for a client that can show forms differs from the declared one (the server is
   * form-first).
   */
  boolean relaxesListings() {
    return formFirst;
  }

  /**
   * {@code prompt} as a form-first listing shows it: required arguments that may wait for the form,
   * optional.
   */
  static Prompt listed(Prompt prompt) {
    List<PromptArgument> arguments = prompt.arguments();
    if (arguments.stream().noneMatch(PromptArgument::required) || !promptFormFirst(prompt)) {
      return prompt;
    }
    JsonObject rules = argumentRules(prompt);
    List<PromptArgument> relaxed = new ArrayList<>(arguments.size());
    for (PromptArgument a : arguments) {
      relaxed.add(
          a.required() && argumentFormFirst(rules, a.name())
              ? new PromptArgument(a.name(), a.title(), a.description(), false)
              : a);
    }
    return new Prompt(
        prompt.name(),
        prompt.title(),
        prompt.description(),
        relaxed,
        prompt.icons(),
        prompt.meta());
  }

  /**
   * Checks {@code arguments} for a form-first request and, when anything needs the user, throws the
   * one form that asks for it: the required arguments that are missing, the values that break their
   * rules (filled in for correction where the field can hold them), the optional arguments without
   * a value (their defaults filled in), and — when {@code ask.confirm()} — the free-text values
   * given, filled in for checking. Required fields first, each group in the prompt's order.
   * Optional arguments alone never bring a form up. An argument that opted out ({@code formFirst:
   * false}) is asked only when it is missing or invalid, as without form-first.
   *
   * @throws ArgumentsNeeded the form
   * @throws McpException -32602 for arguments the prompt does not declare (no form can fix those)
   */
  static void check(PromptDefinition definition, Map<String, String> arguments, Ask ask) {
    Prompt prompt = definition.prompt();
    ServerText text = ServerText.forPrompt(prompt.meta(), ask.text());
    PromptsFeature.refuseUnknown(text, prompt, arguments);
    Map<String, ArgumentsNeeded.Question> invalid = new HashMap<>();
    for (ArgumentsNeeded.Question q : definition.renderer().check(arguments)) {
      invalid.putIfAbsent(q.field().name(), q);
    }
    boolean firstAll = ask.formFirst() && promptFormFirst(prompt);
    JsonObject rules = argumentRules(prompt);
    Boolean promptConfirm = promptSetting(prompt, "confirm");
    List<ArgumentsNeeded.Question> required = new ArrayList<>();
    List<ArgumentsNeeded.Question> optional = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    boolean needed = false;
    for (PromptArgument a : prompt.arguments()) {
      ArgumentField field = field(definition, a);
      String value = arguments.get(a.name());
      boolean absent = value == null || value.isEmpty();
      boolean asksAll = firstAll && argumentFormFirst(rules, a.name());
      ArgumentsNeeded.Question q = null;
      if (absent && a.required()) {
        missing.add("'" + a.name() + "'");
        q = new ArgumentsNeeded.Question(field, text.get("reason.required"));
        needed = true;
      } else if (invalid.containsKey(a.name())) {
        ArgumentsNeeded.Question bad = invalid.get(a.name());
        q = new ArgumentsNeeded.Question(
            fitsField(field, value) ? field.withDefault(value) : field, bad.reason());
        needed = true;
      } else if (absent && asksAll) {
        q = new ArgumentsNeeded.Question(field, "");
      } else if (!absent
          && asksAll
          && freeText(field)
          && confirms(ask, promptConfirm, rules, a.name())) {
        q = new ArgumentsNeeded.Question(field.withDefault(value), "");
        needed = true;
      }
      if (q != null) {
        (a.required() ? required : optional).add(q);
      }
    }
    if (!needed) {
      return;
    }
    List<ArgumentsNeeded.Question> form = new ArrayList<>(required);
    form.addAll(optional);
    String message;
    if (!missing.isEmpty()) {
      message = text.get(
          missing.size() > 1 ? "argument.missing.many" : "argument.missing.one",
          prompt.name(),
          String.join(", ", missing));
    } else {
      ArgumentsNeeded.Question first =
          form.stream().filter(q -> !q.reason().isEmpty()).findFirst().orElse(null);
      message = first != null
          ? text.get("argument.invalid", prompt.name(), first.field().name(), first.reason())
          : text.get("argument.unconfirmed", prompt.name());
    }
    throw new ArgumentsNeeded(message, form);
  }

  private static ArgumentField field(PromptDefinition definition, PromptArgument argument) {
    ArgumentField field = definition.renderer().field(argument.name());
    return field != null ? field : ArgumentField.of(argument);
  }

  /**
   * Free text: a plain string, with no choices and no pattern — what a client may have cut at a
   * space.
   */
  private static boolean freeText(ArgumentField field) {
    return field.type() == ArgumentField.Type.STRING
        && field.choices().isEmpty()
        && field.pattern() == null;
  }

  /**
   * Whether a rejected value can be offered back in its field (a choice field cannot hold a value
   * not among them).
   */
  private static boolean fitsField(ArgumentField field, @Nullable String value) {
    return value != null
        && !value.isEmpty()
        && field.type() == ArgumentField.Type.STRING
        && field.choices().isEmpty();
  }

  private static boolean confirms(
      Ask ask, @Nullable Boolean promptConfirm, JsonObject rules, String argument) {
    Boolean own = rules
        .object(argument)
        .map(r -> r.get("confirm") instanceof JsonBoolean b ? b.value() : null)
        .orElse(null);
    if (own != null) {
      return own;
    }
    return promptConfirm != null ? promptConfirm : ask.confirm();
  }

  private static boolean promptFormFirst(Prompt prompt) {
    return !Boolean.FALSE.equals(promptSetting(prompt, "first"));
  }

  private static boolean argumentFormFirst(JsonObject rules, String argument) {
    return rules
        .object(argument)
        .map(r -> !(r.get("formFirst") instanceof JsonBoolean b && !b.value()))
        .orElse(true);
  }

  private static @Nullable Boolean promptSetting(Prompt prompt, String key) {
    JsonObject meta = prompt.meta();
    if (meta == null || !(meta.get(ArgumentForms.FORM_META) instanceof JsonObject form)) {
      return null;
    }
    Json value = form.get(key);
    return value instanceof JsonBoolean b ? b.value() : null;
  }

  private static JsonObject argumentRules(Prompt prompt) {
    JsonObject meta = prompt.meta();
    return meta != null && meta.get(ArgumentForms.ARGUMENTS_META) instanceof JsonObject rules
        ? rules
        : JsonObject.EMPTY;
  }
}
