package io.promptd.mcp.annotations;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.ArgumentCompleter;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptRenderer;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Turns an object's {@link PromptMethod} methods into prompt definitions:
 *
 * <pre>{@code
 * public class TeamPrompts {
 *   @PromptMethod(description = "Reviews code")
 *   public String review(@Arg(name = "code", description = "The code") String code,
 *       @Arg(name = "language", values = {"java", "go"}) String language,
 *       @Arg(name = "depth", required = false) Integer depth) {
 *     return "Review this " + language + " code" + (depth == null ? "" : " to depth " + depth) + ":\n" + code;
 *   }
 * }
 * catalog.update(editor -> AnnotatedPrompts.of(new TeamPrompts()).forEach(editor::put));
 * }</pre>
 *
 * <p>Everything is checked here, once, with a message naming the method: a parameter without
 * {@link Arg}, a type that cannot be read from a string, a primitive that is not required, a return
 * type that is not a prompt, two prompts with one name, a {@link Complete} method for a prompt or
 * argument that does not exist or with the wrong signature. Methods are called on the object given,
 * from any thread, possibly at once.
 */
@Stability(Stability.Tier.STABLE)
public final class AnnotatedPrompts {
  private AnnotatedPrompts() {}

  /**
   * The prompts of {@code instance}'s public methods marked {@link PromptMethod}, sorted by name.
   *
   * @throws IllegalArgumentException when a method cannot be a prompt or completion, saying which
   *     and why
   */
  public static List<PromptDefinition> of(Object instance) {
    requireNonNull(instance, "instance");
    Class<?> type = instance.getClass();
    if (!Modifier.isPublic(type.getModifiers())) {
      throw new IllegalArgumentException(
          type.getName() + " must be public for its @PromptMethod methods to be called");
    }
    Method[] methods = type.getMethods();
    Arrays.sort(methods, Comparator.comparing(Method::getName));
    // Every mistake of the class is reported at once, not only the first.
    List<String> mistakes = new ArrayList<>();
    Map<String, Built> prompts = new LinkedHashMap<>();
    for (Method m : methods) {
      PromptMethod p = m.getAnnotation(PromptMethod.class);
      if (p != null) {
        Built built = build(instance, m, p, mistakes);
        if (built != null && prompts.putIfAbsent(built.name, built) != null) {
          mistakes.add(
              where(m) + ": another @PromptMethod method is named '" + built.name + "' too");
        }
      }
    }
    for (Method m : methods) {
      Complete c = m.getAnnotation(Complete.class);
      if (c != null) {
        Built target = prompts.get(c.prompt());
        if (target == null) {
          mistakes.add(where(m) + ": @Complete names prompt '" + c.prompt()
              + "', which no @PromptMethod method of " + type.getName() + " is");
        } else {
          try {
            target.completer(instance, m, c);
          } catch (IllegalArgumentException e) {
            mistakes.add(e.getMessage());
          }
        }
      }
    }
    if (mistakes.size() == 1) {
      throw new IllegalArgumentException(mistakes.getFirst());
    } else if (!mistakes.isEmpty()) {
      throw new IllegalArgumentException(
          mistakes.size() + " mistakes in " + type.getName() + ":\n" + String.join("\n", mistakes));
    }
    List<PromptDefinition> out = new ArrayList<>();
    prompts.values().stream()
        .sorted(Comparator.comparing(b -> b.name))
        .forEach(b -> out.add(b.definition()));
    return out;
  }

  /**
   * A method's name as a prompt is named in a file: {@code codeSummary} is {@code code-summary},
   * {@code parseHTTPHeaders} is {@code parse-http-headers}; a name without capitals stays as it is.
   */
  static String kebab(String method) {
    StringBuilder out = new StringBuilder(method.length() + 4);
    for (int i = 0; i < method.length(); i++) {
      char c = method.charAt(i);
      if (Character.isUpperCase(c)) {
        char before = i == 0 ? 0 : method.charAt(i - 1);
        boolean wordEnds = Character.isLowerCase(before) || Character.isDigit(before);
        boolean acronymEnds = Character.isUpperCase(before)
            && i + 1 < method.length()
            && Character.isLowerCase(method.charAt(i + 1));
        if (wordEnds || acronymEnds) {
          out.append('-');
        }
        out.append(Character.toLowerCase(c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static String where(Method m) {
    return m.getDeclaringClass().getName() + "#" + m.getName();
  }

  /** The prompt of method {@code m}, or null when it has mistakes (added to {@code mistakes}). */
  private static @Nullable Built build(
      Object instance, Method m, PromptMethod p, List<String> mistakes) {
    int before = mistakes.size();
    if (Modifier.isStatic(m.getModifiers())) {
      mistakes.add(where(m) + ": a @PromptMethod method must not be static");
      return null;
    }
    Results result = null;
    try {
      accessible(instance, m);
      result = Results.of(m);
    } catch (IllegalArgumentException e) {
      mistakes.add(e.getMessage());
    }
    String name = p.name().isEmpty() ? kebab(m.getName()) : p.name();
    List<AnnotatedArgument> arguments = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Parameter parameter : m.getParameters()) {
      try {
        AnnotatedArgument a = AnnotatedArgument.of(m, parameter);
        if (!seen.add(a.field().name())) {
          mistakes.add(where(m) + ": two parameters are argument '" + a.field().name() + "'");
        }
        arguments.add(a);
      } catch (IllegalArgumentException e) {
        mistakes.add(e.getMessage());
      }
    }
    return mistakes.size() > before || result == null
        ? null
        : new Built(instance, m, name, p, arguments, result);
  }

  /** What a prompt method returns, and how it becomes a {@link GetPromptResult}. */
  private enum Results {
    TEXT,
    MESSAGE,
    MESSAGES,
    RESULT;

    static Results of(Method m) {
      Class<?> r = m.getReturnType();
      if (r == String.class) {
        return TEXT;
      }
      if (r == PromptMessage.class) {
        return MESSAGE;
      }
      if (r == GetPromptResult.class) {
        return RESULT;
      }
      if (r == List.class
          && m.getGenericReturnType() instanceof ParameterizedType pt
          && pt.getActualTypeArguments()[0] == PromptMessage.class) {
        return MESSAGES;
      }
      throw new IllegalArgumentException(
          where(m) + ": a @PromptMethod method returns String, PromptMessage,"
              + " List<PromptMessage> or GetPromptResult, not "
              + m.getGenericReturnType().getTypeName());
    }

    @SuppressWarnings("unchecked")
    GetPromptResult wrap(@Nullable Object value, @Nullable String description, String name) {
      if (value == null) {
        throw McpException.internal("prompt '" + name + "' rendered nothing");
      }
      return switch (this) {
        case TEXT -> GetPromptResult.of(description, List.of(PromptMessage.user((String) value)));
        case MESSAGE -> GetPromptResult.of(description, List.of((PromptMessage) value));
        case MESSAGES -> GetPromptResult.of(description, List.copyOf((List<PromptMessage>) value));
        case RESULT -> (GetPromptResult) value;
      };
    }
  }

  static @Nullable String blank(String s) {
    return s.isEmpty() ? null : s;
  }

  /** A prompt being assembled: its method, its arguments, and a completer once one is found. */
  private static final class Built {
    final Object instance;
    final Method method;
    final String name;
    final PromptMethod annotation;
    final List<AnnotatedArgument> arguments;
    final Results result;
    final Map<String, ArgumentCompleter> completers = new HashMap<>();

    Built(
        Object instance,
        Method method,
        String name,
        PromptMethod annotation,
        List<AnnotatedArgument> arguments,
        Results result) {
      this.instance = instance;
      this.method = method;
      this.name = name;
      this.annotation = annotation;
      this.arguments = arguments;
      this.result = result;
    }

    void completer(Object target, Method m, Complete c) {
      if (arguments.stream().noneMatch(a -> a.field().name().equals(c.argument()))) {
        throw new IllegalArgumentException(where(m) + ": @Complete names argument '" + c.argument()
            + "', which prompt '" + name + "' does not have");
      }
      Type[] params = m.getGenericParameterTypes();
      boolean withContext = params.length == 2
          && params[1] instanceof ParameterizedType pt
          && pt.getRawType() == Map.class;
      if (Modifier.isStatic(m.getModifiers())
          || params.length < 1
          || params.length > 2
          || params[0] != String.class
          || (params.length == 2 && !withContext)) {
        throw new IllegalArgumentException(
            where(m) + ": a @Complete method takes (String prefix) or (String prefix,"
                + " Map<String, String> arguments) and is not static");
      }
      accessible(target, m);
      boolean list = m.getReturnType() == List.class;
      if (!list && m.getReturnType() != Completion.class) {
        throw new IllegalArgumentException(
            where(m) + ": a @Complete method returns List<String> or Completion");
      }
      if (completers.putIfAbsent(c.argument(), (argument, value, context) -> {
            Object out =
                call(target, m, withContext ? new Object[] {value, context} : new Object[] {value});
            if (out == null) {
              return Completion.EMPTY;
            }
            if (!list) {
              return (Completion) out;
            }
            List<String> values = new ArrayList<>();
            for (Object o : (List<?>) out) {
              values.add(String.valueOf(o));
            }
            return Completion.of(values);
          })
          != null) {
        throw new IllegalArgumentException(where(m) + ": argument '" + c.argument()
            + "' of prompt '" + name + "' already has a @Complete method");
      }
    }

    PromptDefinition definition() {
      List<PromptArgument> declared = new ArrayList<>();
      Map<String, ArgumentField> fields = new HashMap<>();
      for (AnnotatedArgument a : arguments) {
        declared.add(new PromptArgument(
            a.field().name(),
            a.field().title(),
            a.field().description(),
            a.field().required()));
        fields.put(a.field().name(), a.field());
      }
      String description = blank(annotation.description());
      Prompt prompt =
          new Prompt(name, blank(annotation.title()), description, declared, List.of(), null);
      boolean elicits = annotation.elicit();
      PromptRenderer renderer = new PromptRenderer() {
        @Override
        public GetPromptResult render(Map<String, String> given) throws Exception {
          @Nullable Object[] values = new Object[arguments.size()];
          for (int i = 0; i < values.length; i++) {
            AnnotatedArgument a = arguments.get(i);
            values[i] = a.read(given.get(a.field().name()), name);
            if (values[i] == null && a.type().isPrimitive()) {
              throw McpException.invalidParams("prompt '" + name + "': missing required argument '"
                  + a.field().name() + "'");
            }
          }
          return result.wrap(call(instance, method, values), description, name);
        }

        @Override
        public @Nullable ArgumentField field(String argument) {
          return fields.get(argument);
        }

        @Override
        public boolean elicits() {
          return elicits;
        }
      };
      Map<String, ArgumentCompleter> own = Map.copyOf(completers);
      ArgumentCompleter completer = (argument, value, context) -> {
        ArgumentCompleter c = own.get(argument);
        if (c != null) {
          return c.complete(argument, value, context);
        }
        ArgumentField f = fields.get(argument);
        if (f == null || f.choices().isEmpty()) {
          return Completion.EMPTY;
        }
        String prefix = value.toLowerCase(Locale.ROOT);
        return Completion.of(f.choices().stream()
            .filter(v -> v.toLowerCase(Locale.ROOT).startsWith(prefix))
            .toList());
      };
      return new PromptDefinition(prompt, renderer, completer, Set.of(annotation.scopes()));
    }
  }

  /**
   * Checked at registration: a method promptd cannot call (its package not exported or opened to
   * it) says so now.
   */
  private static void accessible(Object target, Method m) {
    if (!m.canAccess(target)) {
      throw new IllegalArgumentException(
          where(m) + " cannot be called from promptd: export or open its package to"
              + " module io.promptd.mcp");
    }
  }

  /** Calls {@code m}; what it throws comes out as itself (an McpException keeps its code). */
  private static @Nullable Object call(Object target, Method m, @Nullable Object[] values) {
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
}
