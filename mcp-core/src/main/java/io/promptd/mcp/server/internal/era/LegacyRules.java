package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.server.internal.method.EraRules;
import io.promptd.mcp.server.internal.method.MethodCall;
import io.promptd.mcp.server.internal.state.CallSession;

/**
 * The legacy era's rules: forms are what the session's {@code initialize} declared, asked for with
 * {@code elicitation/create} when the request's stream carries the server's requests; results carry
 * no caching hints.
 */
final class LegacyRules implements EraRules {
  static final LegacyRules INSTANCE = new LegacyRules();

  private LegacyRules() {}

  @Override
  public boolean showsForms(MethodCall call) {
    return call.legacySession().mayElicit();
  }

  @Override
  public Asking asking(MethodCall call) {
    CallSession session = call.legacySession();
    return session.canElicit(call.stream()) ? Asking.ELICIT : Asking.NEVER;
  }

  @Override
  public int resourceNotFound() {
    return ErrorCodes.RESOURCE_NOT_FOUND;
  }

  @Override
  public boolean cacheHints() {
    return false;
  }
}
