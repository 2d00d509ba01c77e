package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import io.promptd.mcp.server.internal.method.EraRules;
import io.promptd.mcp.server.internal.method.MethodCall;
import io.promptd.mcp.server.internal.state.FormElicitation;

/**
 * The rules of 2026-07-28: forms are what the request itself declares, asked for by answering
 * input-required; a missing resource is invalid params; results carry caching hints.
 *
 * @param serverElicits whether the server asks for arguments at all
 */
record ModernRules(boolean serverElicits) implements EraRules {
  /**
   * A form-first listing depends on the capabilities this request declared, not only on who asks:
   * it must not be shared with clients that cannot show forms (they would send commands without
   * required arguments).
   */
  @Override
  public boolean showsForms(MethodCall call) {
    return serverElicits && FormElicitation.supported(call.context().clientCapabilities());
  }

  @Override
  public Asking asking(MethodCall call) {
    return Asking.INPUT_REQUIRED;
  }

  @Override
  public int resourceNotFound() {
    return ErrorCodes.INVALID_PARAMS;
  }

  @Override
  public boolean cacheHints() {
    return true;
  }
}
