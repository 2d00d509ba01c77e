package io.promptd.mcp.server.internal.era;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.Notification;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.protocol.Methods;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.spi.Admission;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.Reply;
import io.promptd.mcp.spi.RequestHeaders;
import java.util.Optional;

/** Decides which era takes a unit of input that arrived with request metadata (an HTTP POST). */
public final class Admissions {
  private Admissions() {}

  /**
   * The era of {@code input}: stateless when it claims 2026-07-28 (even within a session, whose
   * header the modern era ignores), else legacy, where only {@code initialize} may come without a
   * session.
   */
  public static Admission admit(RequestHeaders headers, Incoming input, boolean inSession) {
    if (claims(headers, input)) {
      return input instanceof Incoming.Single(Request r)
              && r.method().equals(Methods.SUBSCRIPTIONS_LISTEN)
          ? new Admission.Listen(r)
          : new Admission.Stateless();
    }
    if (input instanceof Incoming.Invalid invalid && !inSession) {
      // Within a session the session answers, under its version's rule for an unreadable id.
      return new Admission.Rejected(Reply.rejected(invalid.error(), true, null));
    }
    if (inSession) {
      return new Admission.InSession();
    }
    if (input instanceof Incoming.Single(Request r) && r.method().equals(Methods.INITIALIZE)) {
      return new Admission.Initialize(r);
    }
    return new Admission.NoSession();
  }

  /**
   * Whether input belongs to the stateless era: its {@code MCP-Protocol-Version} names a version
   * that is not a legacy one (an unknown future version included), or its body carries the
   * per-request {@code _meta} version.
   */
  static boolean claims(RequestHeaders headers, Incoming input) {
    String header = headers.protocolVersion();
    if (header != null) {
      Optional<ProtocolVersion> v = ProtocolVersion.of(header.trim());
      if (v.isEmpty() || v.get().isModern()) {
        return true;
      }
    }
    JsonObject params = switch (input) {
      case Incoming.Single(Request r) -> r.params();
      case Incoming.Single(Notification n) -> n.paramsOrEmpty();
      default -> JsonObject.EMPTY;
    };
    return params.object("_meta").map(m -> m.has(ModernMeta.PROTOCOL_VERSION)).orElse(false);
  }
}
