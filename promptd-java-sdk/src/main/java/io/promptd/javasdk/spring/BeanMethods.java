package io.promptd.javasdk.spring;

import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.server.ArgumentCompleter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** Calling a bean's annotated methods: where a mistake is, the call, and completion methods. */
final class BeanMethods {
  private BeanMethods() {}

  /** {@code Class#method}, as every mistake names it. */
  static String where(Method m) {
    return m.getDeclaringClass().getName() + "#" + m.getName();
  }

  /**
   * Makes {@code m} callable on its bean (a package-private component's method too); a mistake when
   * it cannot be or is static.
   */
  static boolean callable(Method m, String annotation, List<String> mistakes) {
    if (Modifier.isStatic(m.getModifiers())) {
      mistakes.add(where(m) + ": an " + annotation + " method must not be static");
      return false;
    }
    if (!m.trySetAccessible()) {
      mistakes.add(where(m) + " cannot be called from promptd: open its package to module"
          + " io.promptd.javasdk");
      return false;
    }
    return true;
  }

  /** Calls {@code m}; what it throws comes out as itself (an McpException keeps its code). */
  static @Nullable Object call(Object target, Method m, @Nullable Object[] values) {
    try {
      return m.invoke(target, values);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(where(m) + " failed", cause);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(where(m) + " cannot be called: " + e.getMessage(), e);
    }
  }

  /** What a completion parameter is given: from the request promptd builds for it. */
  private static final List<Class<?>> COMPLETE_PARAMS = List.of(
      String.class,
      McpSchema.CompleteRequest.class,
      McpSchema.CompleteRequest.CompleteArgument.class);

  /**
   * The completer of {@code @McpComplete(prompt = …)} method {@code m}, for every argument of the
   * prompt; null when the method has mistakes (added to {@code mistakes}).
   */
  static @Nullable ArgumentCompleter completer(
      Object bean, Method m, String prompt, List<String> mistakes) {
    int before = mistakes.size();
    List<Function<McpSchema.CompleteRequest, Object>> params = new ArrayList<>();
    for (Class<?> type : m.getParameterTypes()) {
      if (type == String.class) {
        params.add(r -> r.argument().value());
      } else if (type == McpSchema.CompleteRequest.class) {
        params.add(r -> r);
      } else if (type == McpSchema.CompleteRequest.CompleteArgument.class) {
        params.add(McpSchema.CompleteRequest::argument);
      } else {
        mistakes.add(where(m) + ": a parameter of type " + type.getName() + " is not one promptd"
            + " can give an @McpComplete method: "
            + String.join(
                ", ", COMPLETE_PARAMS.stream().map(Class::getSimpleName).toList()));
      }
    }
    Class<?> r = m.getReturnType();
    boolean strings = r == List.class
        && m.getGenericReturnType() instanceof ParameterizedType pt
        && pt.getActualTypeArguments()[0] == String.class;
    if (!strings
        && r != String.class
        && r != McpSchema.CompleteResult.class
        && r != McpSchema.CompleteResult.CompleteCompletion.class) {
      mistakes.add(where(m) + ": an @McpComplete method returns CompleteResult,"
          + " CompleteCompletion, List<String> or String, not "
          + m.getGenericReturnType().getTypeName());
    }
    if (!callable(m, "@McpComplete", mistakes) || mistakes.size() > before) {
      return null;
    }
    return (argument, value, context) -> {
      McpSchema.CompleteRequest request = new McpSchema.CompleteRequest(
          new McpSchema.PromptReference(prompt),
          new McpSchema.CompleteRequest.CompleteArgument(argument, value),
          null,
          new McpSchema.CompleteRequest.CompleteContext(context));
      @Nullable Object[] values = new Object[params.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = params.get(i).apply(request);
      }
      return completion(call(bean, m, values));
    };
  }

  private static Completion completion(@Nullable Object out) {
    return switch (out) {
      case null -> Completion.EMPTY;
      case String s -> Completion.of(List.of(s));
      case McpSchema.CompleteResult result -> completion(result.completion());
      case McpSchema.CompleteResult.CompleteCompletion c -> {
        List<String> values = c.values() == null ? List.of() : c.values();
        yield (c.total() == null && c.hasMore() == null) || values.size() > Completion.MAX_VALUES
            ? Completion.of(values)
            : new Completion(values, c.total(), Boolean.TRUE.equals(c.hasMore()));
      }
      case List<?> list -> Completion.of(list.stream().map(String::valueOf).toList());
      default -> Completion.EMPTY;
    };
  }
}
