package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.server.ArgumentsNeeded;
import io.promptd.mcp.server.internal.state.FormElicitation;
import io.promptd.mcp.server.internal.state.RequestContext;
import io.promptd.mcp.server.internal.state.RequestContext.Retry;
import io.promptd.mcp.server.internal.state.RequestStates;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.wire.Encoder;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code prompts/get} in 2026-07-28 when arguments are missing or invalid: instead of -32602, an
 * {@code InputRequiredResult} (multi round-trip requests) whose one input request, {@value #KEY},
 * is an {@code elicitation/create} form for those arguments, with a sealed {@link RequestStates
 * requestState}. The client retries the original request with the user's answer in
 * {@code inputResponses} and the state; the server checks the state, adds the answers to the
 * arguments and renders — or asks again for what is still missing or invalid. Nothing is kept on
 * the server between the rounds, so any replica can serve the retry.
 */
public final class InputRequired {
  /** The key of the one input request promptd sends. */
  static final String KEY = "arguments";

  private static final String METHOD = Methods.PROMPTS_GET;

  private InputRequired() {}

  /**
   * Reads a {@code prompts/get}'s {@code requestState} and {@code inputResponses}, before it is
   * served: a retry whose state fails its checks, or whose answer is malformed, is a malformed
   * request (-32602; on HTTP, 400).
   *
   * @return the retry, or null when the request carries neither field
   */
  public static @Nullable Retry read(Request request, RequestStates states, Caller caller) {
    if (!request.method().equals(METHOD)) {
      return null;
    }
    JsonObject params = request.params();
    Json state = params.get("requestState");
    Json responses = params.get("inputResponses");
    if (state == null && responses == null) {
      return null;
    }
    if (!(state instanceof JsonString s)) {
      throw McpException.invalidParams(
          state == null
              ? "Invalid params: inputResponses without requestState (echo the requestState of the InputRequiredResult)"
              : "Invalid params: requestState must be a string");
    }
    if (!(params.get("name") instanceof JsonString name)) {
      throw McpException.invalidParams("Invalid params: \"name\" must be a string naming a prompt");
    }
    RequestStates.State checked = states.open(
        s.value(), METHOD, RequestStates.digest(name.value(), given(params)), caller.subject());
    if (responses == null) {
      return new Retry(checked, null);
    }
    if (!(responses instanceof JsonObject r)) {
      throw McpException.invalidParams("Invalid params: inputResponses must be an object");
    }
    Json answer = r.get(KEY);
    return new Retry(
        checked,
        answer == null
            ? null
            : FormElicitation.read(
                answer, new HashSet<>(checked.asked()), "inputResponses." + KEY));
  }

  /**
   * Serves a {@code prompts/get}: its result, or an {@code InputRequiredResult} when arguments are
   * missing or invalid and the user can be asked — the server and the prompt allow it, and the
   * request declares form elicitation.
   */
  static JsonObject.Builder get(
      PromptsFeature prompts,
      RequestStates states,
      boolean serverAsks,
      FormRules forms,
      JsonObject params,
      Encoder encoder,
      RequestContext ctx) {
    Retry retry = ctx.retry();
    FormRules.Ask ask = forms.ask(
        serverAsks && FormElicitation.supported(ctx.clientCapabilities()),
        ctx.clientInfo(),
        retry == null);
    Map<String, String> given = given(params);
    Map<String, String> answered = new LinkedHashMap<>();
    JsonObject effective = params;
    if (retry != null) {
      answered.putAll(retry.state().answered());
      FormElicitation.Answer answer = retry.answer();
      if (answer != null && !answer.accepted()) {
        try {
          return prompts.get(params, encoder, ctx.caller(), null, ctx.clientInfo()).toBuilder();
        } catch (ArgumentsNeeded e) {
          throw FormElicitation.declined(
              prompts.text(params.string("name").orElse(""), ctx.caller()),
              e.getMessage(),
              answer.action());
        }
      }
      if (answer != null) {
        answered.putAll(answer.values());
      }
      Map<String, String> arguments = new LinkedHashMap<>(given);
      retry.state().asked().forEach(arguments::remove); // asked and left empty: not given
      arguments.putAll(answered);
      JsonObject.Builder args = JsonObject.builder();
      arguments.forEach(args::put);
      effective = params.toBuilder().put("arguments", args.build()).build();
    }
    try {
      return prompts.get(effective, encoder, ctx.caller(), ask, ctx.clientInfo()).toBuilder();
    } catch (ArgumentsNeeded e) {
      String name = params.string("name").orElseThrow();
      if (!serverAsks
          || !FormElicitation.supported(ctx.clientCapabilities())
          || !prompts.elicits(name, ctx.caller())) {
        throw e;
      }
      List<String> asked = e.questions().stream().map(q -> q.field().name()).toList();
      asked.forEach(answered::remove); // answered but still wrong: asked again, not carried
      RequestStates.State next = states.issue(
          METHOD, RequestStates.digest(name, given), ctx.caller().subject(), asked, answered);
      JsonObject request = JsonObject.builder()
          .put("method", Methods.ELICITATION_CREATE)
          .put(
              "params",
              FormElicitation.params(prompts.text(name, ctx.caller()), name, e.questions()))
          .build();
      return JsonObject.builder()
          .put("resultType", "input_required")
          .put("inputRequests", JsonObject.builder().put(KEY, request).build())
          .put("requestState", states.seal(next));
    }
  }

  /**
   * The string arguments a request carries; anything else is left for {@code prompts/get} to
   * refuse.
   */
  private static Map<String, String> given(JsonObject params) {
    Map<String, String> out = new LinkedHashMap<>();
    if (params.get("arguments") instanceof JsonObject o) {
      o.members().forEach((k, v) -> {
        if (v instanceof JsonString s) {
          out.put(k, s.value());
        }
      });
    }
    return out;
  }
}
