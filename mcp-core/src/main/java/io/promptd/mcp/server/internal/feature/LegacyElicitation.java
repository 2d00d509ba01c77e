package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.ArgumentsNeeded;
import io.promptd.mcp.server.ServerText;
import io.promptd.mcp.server.internal.state.CallSession;
import io.promptd.mcp.server.internal.state.FormElicitation;
import io.promptd.mcp.server.internal.state.LegacyState;
import io.promptd.mcp.server.internal.state.ServerContext;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.wire.Encoder;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code prompts/get} in a legacy session (2025-06-18, 2025-11-25) whose client declared
 * elicitation, over a channel that carries the server's own requests (stdio; an HTTP POST answered
 * as an event stream): missing or invalid arguments are asked for with an
 * {@code elicitation/create} request to the client, and the request waits for the answer — at most
 * {@link ServerContext#elicitationTimeout}; cancelling the request ends the wait. A wrong answer is
 * asked for again, up to {@value #MAX_ROUNDS} forms. Decline, cancel, an error from the client or
 * no answer in time: the -32602 the request would have had, saying why.
 */
final class LegacyElicitation {
  static final int MAX_ROUNDS = 3;

  private LegacyElicitation() {}

  static JsonObject get(
      PromptsFeature prompts,
      CallSession session,
      Outbound stream,
      ProtocolVersion version,
      JsonObject params,
      Encoder encoder,
      Caller caller) {
    Map<String, String> arguments = new LinkedHashMap<>();
    if (params.get("arguments") instanceof JsonObject given) {
      given.members().forEach((k, v) -> {
        if (v instanceof JsonString s) {
          arguments.put(k, s.value());
        }
      });
    }
    LegacyState state = session.legacy();
    Implementation client = state == null ? null : state.clientInfo;
    JsonObject current = params;
    for (int round = 1; ; round++) {
      try {
        return prompts.get(
            current, encoder, caller, prompts.forms().ask(true, client, round == 1), client);
      } catch (ArgumentsNeeded e) {
        String name = params.string("name").orElseThrow();
        if (round > MAX_ROUNDS || !prompts.elicits(name, caller)) {
          throw e;
        }
        ServerText text = prompts.text(name, caller);
        JsonObject form = FormElicitation.params(text, name, e.questions());
        if (!version.atLeast(ProtocolVersion.V2025_11_25)) {
          form =
              form.toBuilder().remove("mode").build(); // 2025-06-18 knows only forms, and no "mode"
        }
        List<String> asked = e.questions().stream().map(q -> q.field().name()).toList();
        Response response;
        try {
          response = session.request(
              Methods.ELICITATION_CREATE, form, session.context().elicitationTimeout, stream);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt(); // the request was cancelled: its answer is suppressed
          throw McpException.internal("prompt '" + name + "': cancelled while the user was asked");
        }
        if (!(response instanceof ResultResponse r)) {
          throw McpException.invalidParams(e.getMessage()
              + (response == null
                  ? " (no answer to the form asking for them within "
                      + seconds(session.context().elicitationTimeout)
                  : " (the client could not show the form asking for them)"));
        }
        FormElicitation.Answer answer =
            FormElicitation.read(r.result(), new HashSet<>(asked), "the elicitation result");
        if (!answer.accepted()) {
          throw FormElicitation.declined(text, e.getMessage(), answer.action());
        }
        asked.forEach(arguments::remove);
        arguments.putAll(answer.values());
        JsonObject.Builder args = JsonObject.builder();
        arguments.forEach(args::put);
        current = params.toBuilder().put("arguments", args.build()).build();
      }
    }
  }

  private static String seconds(Duration d) {
    return d.toSeconds() + " s)";
  }
}
