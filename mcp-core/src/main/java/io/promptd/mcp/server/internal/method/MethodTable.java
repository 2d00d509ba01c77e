package io.promptd.mcp.server.internal.method;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.spi.Caller;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every MCP method the server serves, one row each: its name, the eras it exists in, whether serving it may block,
 * and its handler. Features register their rows once ({@link #standard}); the era adapters ({@code LegacyEra} for
 * legacy sessions, {@code StatelessEra} for 2026-07-28) look requests up here and do nothing method-specific themselves.
 * Adding a method is adding a row.
 */
public final class MethodTable {
  /** The protocol eras a method exists in. */
  public enum Era {
    /** {@code initialize} sessions, 2024-11-05 to 2025-11-25. */
    LEGACY,
    /** Stateless requests with per-request {@code _meta}, 2026-07-28. */
    MODERN;

    public static final Set<Era> BOTH = Set.of(LEGACY, MODERN);
  }

  /** Serves one request. */
  @FunctionalInterface
  public interface Handler {
    /** The result, before the era adds its own fields (a modern result's {@code resultType} and server info). */
    JsonObject.Builder handle(MethodCall call);
  }

  /** Whether serving a request may block (and so must not run on the thread that reads the channel). */
  @FunctionalInterface
  public interface Blocking {
    /** Never: answered from memory. */
    Blocking NEVER = (request, caller) -> false;
    /** Always: a stream, or I/O. */
    Blocking ALWAYS = (request, caller) -> true;

    /** Whether {@code request} from {@code caller} may block. */
    boolean mayBlock(Request request, Caller caller);
  }

  /** One method: where it exists, whether it may block, what serves it. */
  record Row(String method, Set<Era> eras, Blocking blocking, Handler handler) {}

  private final Map<String, Row> legacy;
  private final Map<String, Row> modern;

  private MethodTable(Map<String, Row> legacy, Map<String, Row> modern) {
    this.legacy = Map.copyOf(legacy);
    this.modern = Map.copyOf(modern);
  }

  /** The table of a server with its features (which {@code McpServer} assembles): each registers its rows. */
  public static MethodTable standard(List<? extends Feature> features) {
    Builder table = new Builder();
    for (Feature feature : features) {
      feature.register(table);
    }
    return table.build();
  }

  /** Whether any era has {@code method}: a request for it before a legacy {@code initialize} is premature, not unknown. */
  public boolean knows(String method) {
    return legacy.containsKey(method) || modern.containsKey(method);
  }

  /** Whether serving {@code request} may block; false for a method this table does not have. */
  public boolean mayBlock(Request request, Caller caller) {
    Row row = modern.get(request.method());
    if (row == null) {
      row = legacy.get(request.method());
    }
    return row != null && row.blocking().mayBlock(request, caller);
  }

  /**
   * Serves {@code call} with its method's row in the call's era.
   *
   * @throws McpException -32601 when the era has no such method
   */
  public JsonObject.Builder serve(MethodCall call) {
    Row row = (call.modern() ? modern : legacy).get(call.request().method());
    if (row == null) {
      throw McpException.methodNotFound(call.request().method());
    }
    return row.handler().handle(call);
  }

  /** Collects the features' rows; a method registered twice for one era is a programming error. */
  public static final class Builder {
    private final Map<String, Row> legacy = new HashMap<>();
    private final Map<String, Row> modern = new HashMap<>();

    /** Adds {@code method} in {@code eras}. */
    public Builder add(String method, Set<Era> eras, Blocking blocking, Handler handler) {
      Row row = new Row(method, Set.copyOf(eras), blocking, handler);
      for (Era era : eras) {
        Row before = (era == Era.LEGACY ? legacy : modern).putIfAbsent(method, row);
        if (before != null) {
          throw new IllegalStateException(
              "MethodTable: " + method + " is registered twice for the " + era + " era");
        }
      }
      return this;
    }

    MethodTable build() {
      return new MethodTable(legacy, modern);
    }
  }
}
