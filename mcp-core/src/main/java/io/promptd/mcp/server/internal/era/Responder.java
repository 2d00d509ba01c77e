package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.spi.Call;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.Reply;
import java.lang.System.Logger.Level;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Runs a request under cancellation, and is the one place where exceptions become error responses.
 */
final class Responder {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.server");

  private Responder() {}

  /**
   * Serves {@code request} on the calling thread, bound to {@code task} so that a cancellation
   * interrupts it.
   *
   * @return the response, or null when the request was cancelled and must not be answered
   */
  static @Nullable Response run(
      Request request, InFlight task, Function<Request, JsonObject> serve) {
    if (!task.start(Thread.currentThread())) {
      return null; // cancelled before it started
    }
    try {
      Response response = respond(request, serve);
      return task.finish() ? null : response;
    } finally {
      if (task.finish()) {
        Thread.interrupted(); // the interrupt was for this request only
      }
    }
  }

  /**
   * A call that runs {@code task}'s request when the transport says so and can be cancelled through
   * {@code task}: the one shape both a session's and the stateless handler's requests take.
   */
  static Call call(InFlight task, boolean mayBlock, Function<Outbound, Reply> run) {
    return new Call() {
      @Override
      public boolean mayBlock() {
        return mayBlock;
      }

      @Override
      public Reply run(Outbound stream) {
        return run.apply(stream);
      }

      @Override
      public void cancel() {
        task.cancel();
      }
    };
  }

  /** The response to {@code request}: its result, or the error that serving it raised. */
  static Response respond(Request request, Function<Request, JsonObject> serve) {
    try {
      return new ResultResponse(request.id(), serve.apply(request));
    } catch (McpException e) {
      return ErrorResponse.of(request.id(), e);
    } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
      // Errors that application code (a completer, a renderer) can cause still get an answer; a
      // dying VM does not.
      LOG.log(Level.ERROR, "request " + request.id() + " (" + request.method() + ") failed", e);
      return new ErrorResponse(
          request.id(),
          ErrorCodes.INTERNAL_ERROR,
          "Internal error while serving " + request.method(),
          null);
    }
  }

  /**
   * The HTTP-facing hint for a stateless answer: 404 for an unknown method, 400 for the errors the
   * spec lists.
   */
  static Reply.Hint statelessHint(Response response) {
    if (!(response instanceof ErrorResponse e)) {
      return Reply.Hint.ANSWERED;
    }
    return switch (e.code()) {
      case ErrorCodes.METHOD_NOT_FOUND -> Reply.Hint.UNKNOWN_METHOD;
      case ErrorCodes.HEADER_MISMATCH,
          ErrorCodes.UNSUPPORTED_PROTOCOL_VERSION,
          ErrorCodes.MISSING_REQUIRED_CLIENT_CAPABILITY,
          ErrorCodes.INVALID_REQUEST,
          ErrorCodes.PARSE_ERROR -> Reply.Hint.REJECTED;
      default -> Reply.Hint.ANSWERED;
    };
  }
}
