package io.promptd.mcp.client;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Methods;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The client's answers to what a server asks of it: {@code ping}, and — with a {@link FormHandler}
 * — a legacy server's {@code elicitation/create} in form mode. Keeps count of the time forms are
 * open, so that a request waiting on a person's answer does not time out meanwhile.
 */
final class ServerRequests {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.client");

  private final @Nullable FormHandler forms;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicLong openNanos = new AtomicLong();

  ServerRequests(@Nullable FormHandler forms) {
    this.forms = forms;
  }

  /** What a channel answers before a client takes over. */
  static Response pingOnly(Request r) {
    return r.method().equals(Methods.PING)
        ? new ResultResponse(r.id(), JsonObject.EMPTY)
        : notFound(r);
  }

  Response answer(Request r) {
    FormHandler handler = forms;
    if (!r.method().equals(Methods.ELICITATION_CREATE) || handler == null) {
      return pingOnly(r);
    }
    String mode = r.params().string("mode").orElse("form");
    if (!mode.equals("form")) {
      // elicitation.mdx: a mode the client did not declare is -32602.
      return new ErrorResponse(
          r.id(),
          ErrorCodes.INVALID_PARAMS,
          "this client declared form elicitation only, not mode '" + mode + "'",
          null);
    }
    open.incrementAndGet();
    long start = System.nanoTime();
    try {
      return new ResultResponse(r.id(), result(r.params(), handler));
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "the server''s form could not be shown: {0}", e.getMessage());
      return new ErrorResponse(
          r.id(), ErrorCodes.INTERNAL_ERROR, "the form could not be shown to the user", null);
    } finally {
      openNanos.addAndGet(System.nanoTime() - start);
      open.decrementAndGet();
    }
  }

  /** Shows an {@code elicitation/create} request's form and returns the {@code ElicitResult}. */
  static JsonObject result(JsonObject params, FormHandler forms) throws IOException {
    FormHandler.Answer a = forms.answer(
        params.string("message").orElse(""),
        params.object("requestedSchema").orElse(JsonObject.EMPTY));
    JsonObject.Builder out = JsonObject.builder().put("action", a.action());
    if (a.action().equals("accept")) {
      out.put("content", a.content());
    }
    return out.build();
  }

  /** Whether a form is open now. */
  boolean formOpen() {
    return open.get() > 0;
  }

  /** The time forms have been open in all, counted as each one closes. */
  long formNanos() {
    return openNanos.get();
  }

  private static Response notFound(Request r) {
    return new ErrorResponse(
        r.id(), ErrorCodes.METHOD_NOT_FOUND, "Method not found: " + r.method(), null);
  }
}
