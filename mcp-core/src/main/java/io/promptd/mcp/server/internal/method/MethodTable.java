package io.promptd.mcp.server.internal.method;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.server.ServedMethod;
import io.promptd.mcp.spi.Caller;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Every MCP method the server serves, one row each: its name, the eras it exists in, whether
 * serving it may block, its handler, the parameter a modern {@code Mcp-Name} header repeats and the
 * prompt a request names; the notifications a client sends and the methods an era answers itself
 * ({@code initialize}) are rows too, without a handler. Features register their rows once
 * ({@link #standard}); the era adapters ({@code LegacyEra} for legacy sessions,
 * {@code StatelessEra} for 2026-07-28) look requests up here and do nothing method-specific
 * themselves. Adding a method is adding a row.
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
    /**
     * The result, before the era adds its own fields (a modern result's {@code resultType} and
     * server info).
     */
    JsonObject.Builder handle(MethodCall call);
  }

  /**
   * Whether serving a request may block (and so must not run on the thread that reads the channel).
   */
  @FunctionalInterface
  public interface Blocking {
    /** Never: answered from memory. */
    Blocking NEVER = (request, caller) -> false;
    /** Always: a stream, or I/O. */
    Blocking ALWAYS = (request, caller) -> true;

    /** Whether {@code request} from {@code caller} may block. */
    boolean mayBlock(Request request, Caller caller);
  }

  /**
   * Where a row's method is served: by its handler, by the era itself, or a client's notification.
   */
  enum Kind {
    REQUEST,
    ERA,
    NOTIFICATION
  }

  /** Names no prompt: a row's default. */
  private static @Nullable String noPrompt(JsonObject params) {
    return null;
  }

  /**
   * One method: where it exists, whether it may block, what serves it, the parameter
   * {@code Mcp-Name} repeats (or null), the prompt a request names, and whether serving it may ask
   * a legacy client (a form) and wait for the answer.
   */
  record Row(
      String method,
      Set<Era> eras,
      Kind kind,
      Blocking blocking,
      Handler handler,
      @Nullable String nameField,
      Function<JsonObject, @Nullable String> prompt,
      boolean asks) {
    /** This row with the facts only some methods have. */
    Row with(
        @Nullable String nameField, Function<JsonObject, @Nullable String> prompt, boolean asks) {
      return new Row(method, eras, kind, blocking, handler, nameField, prompt, asks);
    }
  }

  /** A row's facts as {@code McpServer.methods()} gives them. */
  private record Served(
      String name,
      boolean legacy,
      boolean modern,
      boolean notification,
      @Nullable String nameField,
      Function<JsonObject, @Nullable String> named)
      implements ServedMethod {
    @Override
    public @Nullable String prompt(JsonObject params) {
      return named.apply(params);
    }
  }

  private final Map<String, Row> legacy;
  private final Map<String, Row> modern;
  private final Map<String, ServedMethod> served;

  private MethodTable(Map<String, Row> legacy, Map<String, Row> modern) {
    this.legacy = Map.copyOf(legacy);
    this.modern = Map.copyOf(modern);
    Map<String, ServedMethod> all = new TreeMap<>();
    for (Map<String, Row> era : List.of(legacy, modern)) {
      for (Row r : era.values()) {
        all.computeIfAbsent(
            r.method(),
            name -> new Served(
                name,
                legacy.containsKey(name),
                modern.containsKey(name),
                r.kind() == Kind.NOTIFICATION,
                r.nameField(),
                r.prompt()));
      }
    }
    this.served = Collections.unmodifiableMap(all);
  }

  /**
   * The table of a server with its features (which {@code McpServer} assembles): each registers its
   * rows.
   */
  public static MethodTable standard(List<? extends Feature> features) {
    Builder table = new Builder();
    for (Feature feature : features) {
      feature.register(table);
    }
    return table.build();
  }

  /**
   * Whether any era has {@code method}: a request for it before a legacy {@code initialize} is
   * premature, not unknown.
   */
  public boolean knows(String method) {
    return handled(legacy.get(method)) || handled(modern.get(method));
  }

  private static boolean handled(@Nullable Row row) {
    return row != null && row.kind() == Kind.REQUEST;
  }

  /** Every method's facts, by name. */
  public Map<String, ServedMethod> served() {
    return served;
  }

  /** The parameter a modern {@code method}'s {@code Mcp-Name} header repeats, or null. */
  public @Nullable String nameField(String method) {
    Row row = modern.get(method);
    return row == null ? null : row.nameField();
  }

  /**
   * Whether serving {@code request} may block; false for a method this table does not have.
   * {@code mayAsk}: whether the session may ask its client (a legacy form), asked only of a method
   * that asks — it then waits for the answer, and must not hold the thread that reads it.
   */
  public boolean mayBlock(Request request, Caller caller, BooleanSupplier mayAsk) {
    Row row = modern.get(request.method());
    if (row == null) {
      row = legacy.get(request.method());
    }
    return row != null
        && row.kind() == Kind.REQUEST
        && ((row.asks() && mayAsk.getAsBoolean()) || row.blocking().mayBlock(request, caller));
  }

  /**
   * Serves {@code call} with its method's row in the call's era.
   *
   * @throws McpException -32601 when the era has no such method
   */
  public JsonObject.Builder serve(MethodCall call) {
    Row row = (call.modern() ? modern : legacy).get(call.request().method());
    if (row == null || row.kind() != Kind.REQUEST) {
      throw McpException.methodNotFound(call.request().method());
    }
    return row.handler().handle(call);
  }

  /** Collects the features' rows; a method registered twice for one era is a programming error. */
  public static final class Builder {
    private final Map<String, Row> legacy = new HashMap<>();
    private final Map<String, Row> modern = new HashMap<>();

    /** Adds {@code method} in {@code eras}; the answer completes its row. */
    public Added add(String method, Set<Era> eras, Blocking blocking, Handler handler) {
      Row row = new Row(
          method,
          Set.copyOf(eras),
          Kind.REQUEST,
          blocking,
          handler,
          null,
          MethodTable::noPrompt,
          false);
      put(row);
      return new Added(row);
    }

    /** Adds a notification a client sends in {@code eras}; the session handles it. */
    public Builder notification(String method, Set<Era> eras) {
      return unhandled(method, eras, Kind.NOTIFICATION);
    }

    /**
     * Adds a request the era answers itself, such as {@code initialize}: known here, never served
     * from the table.
     */
    public Builder era(String method, Set<Era> eras) {
      return unhandled(method, eras, Kind.ERA);
    }

    /** A row the table knows and never serves. */
    private Builder unhandled(String method, Set<Era> eras, Kind kind) {
      put(new Row(
          method,
          Set.copyOf(eras),
          kind,
          Blocking.NEVER,
          unserved(),
          null,
          MethodTable::noPrompt,
          false));
      return this;
    }

    private static Handler unserved() {
      return call -> {
        throw McpException.methodNotFound(call.request().method());
      };
    }

    private void put(Row row) {
      for (Era era : row.eras()) {
        Row before = (era == Era.LEGACY ? legacy : modern).putIfAbsent(row.method(), row);
        if (before != null) {
          throw new IllegalStateException("MethodTable: " + row.method()
              + " is registered twice for the " + row.eras() + " era");
        }
      }
    }

    MethodTable build() {
      return new MethodTable(legacy, modern);
    }

    /** A request just added, whose row takes the facts that only some methods have. */
    public final class Added {
      private Row row;

      private Added(Row row) {
        this.row = row;
      }

      /**
       * The parameter ({@code name}, {@code uri}) a modern request's {@code Mcp-Name} header
       * repeats.
       */
      public Added named(String field) {
        return set(row.with(field, row.prompt(), row.asks()));
      }

      /** Serving it may ask a legacy client (a form) and wait for the answer. */
      public Added asks() {
        return set(row.with(row.nameField(), row.prompt(), true));
      }

      /** How a request's parameters name a prompt. */
      public Added prompt(Function<JsonObject, @Nullable String> named) {
        return set(row.with(row.nameField(), named, row.asks()));
      }

      private Added set(Row next) {
        row = next;
        for (Era era : next.eras()) {
          (era == Era.LEGACY ? legacy : modern).put(next.method(), next);
        }
        return this;
      }
    }
  }
}
