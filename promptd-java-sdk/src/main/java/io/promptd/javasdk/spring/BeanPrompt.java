package io.promptd.javasdk.spring;

import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.ArgumentCompleter;
import io.promptd.mcp.server.ArgumentField;
import io.promptd.mcp.server.ArgumentForms;
import io.promptd.mcp.server.ArgumentsNeeded;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptRenderer;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.mcp.annotation.McpArg;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.annotation.context.DefaultMetaProvider;
import org.springframework.ai.mcp.annotation.context.MetaProvider;

/**
 * One bean's {@link McpPrompt} method as a promptd prompt: its {@link McpArg} parameters are typed
 * arguments, what it returns becomes promptd's messages, and a {@code @McpComplete} method of the
 * same prompt (on any bean) completes its arguments.
 */
final class BeanPrompt {
  /** What a parameter is given when the method is called. */
  private interface Param {
    @Nullable
    Object value(Map<String, String> given);
  }

  final String name;
  final Method method;
  private final Object bean;
  private final McpPrompt annotation;
  private final List<Param> params;
  private final List<BeanArgument> arguments;
  private final Results result;
  private final @Nullable JsonObject providedMeta;
  private @Nullable ArgumentCompleter completer;

  private BeanPrompt(
      Object bean,
      Method method,
      McpPrompt annotation,
      List<Param> params,
      List<BeanArgument> arguments,
      Results result,
      @Nullable JsonObject providedMeta) {
    this.bean = bean;
    this.method = method;
    this.annotation = annotation;
    this.name = annotation.name().isEmpty() ? method.getName() : annotation.name();
    this.params = params;
    this.arguments = arguments;
    this.result = result;
    this.providedMeta = providedMeta;
  }

  /** The prompt of {@code m}, or null when it has mistakes (added to {@code mistakes}). */
  static @Nullable BeanPrompt of(
      Object bean, Method m, McpPrompt p, SdkJson json, List<String> mistakes) {
    int before = mistakes.size();
    Results result = Results.of(m, mistakes);
    List<Param> params = new ArrayList<>();
    List<BeanArgument> arguments = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String name = p.name().isEmpty() ? m.getName() : p.name();
    for (Parameter parameter : m.getParameters()) {
      McpArg arg = parameter.getAnnotation(McpArg.class);
      Class<?> type = parameter.getType();
      if (arg != null) {
        try {
          BeanArgument a = BeanArgument.of(m, parameter, arg);
          if (!seen.add(a.field().name())) {
            mistakes.add(BeanMethods.where(m) + ": two parameters are argument '"
                + a.field().name() + "'");
          }
          arguments.add(a);
          params.add(given -> a.read(given.get(a.field().name()), name));
        } catch (IllegalArgumentException e) {
          mistakes.add(e.getMessage());
        }
      } else if (type == Map.class) {
        params.add(given -> new LinkedHashMap<String, Object>(given));
      } else if (type == McpSchema.GetPromptRequest.class) {
        params.add(given -> new McpSchema.GetPromptRequest(name, new LinkedHashMap<>(given), null));
      } else {
        mistakes.add(BeanMethods.where(m) + ": parameter " + parameter.getName() + " ("
            + type.getName() + ") is not one promptd can give: an @McpArg argument, the"
            + " Map of all arguments or the GetPromptRequest (promptd does not pass the"
            + " exchange, the request context, the transport context, @McpMeta or"
            + " @McpProgressToken)");
      }
    }
    JsonObject meta = null;
    if (p.metaProvider() != DefaultMetaProvider.class) {
      try {
        MetaProvider provider = p.metaProvider().getDeclaredConstructor().newInstance();
        Map<String, Object> map = provider.getMeta();
        meta = map == null || map.isEmpty() ? null : json.object(map);
      } catch (ReflectiveOperationException | RuntimeException e) {
        mistakes.add(BeanMethods.where(m) + ": its metaProvider "
            + p.metaProvider().getName() + " could not be made and asked: " + e);
      }
    }
    return mistakes.size() > before || result == null
        ? null
        : new BeanPrompt(bean, m, p, params, arguments, result, meta);
  }

  /** Sets the {@code @McpComplete} method's completer; false when the prompt has one already. */
  boolean complete(ArgumentCompleter c) {
    if (completer != null) {
      return false;
    }
    completer = c;
    return true;
  }

  /** What a prompt method returns, and how it becomes promptd's {@link GetPromptResult}. */
  private enum Results {
    TEXT,
    TEXTS,
    MESSAGE,
    MESSAGES,
    RESULT;

    static @Nullable Results of(Method m, List<String> mistakes) {
      Class<?> r = m.getReturnType();
      if (r == String.class) {
        return TEXT;
      }
      if (r == McpSchema.PromptMessage.class) {
        return MESSAGE;
      }
      if (r == McpSchema.GetPromptResult.class) {
        return RESULT;
      }
      if (r == List.class && m.getGenericReturnType() instanceof ParameterizedType pt) {
        if (pt.getActualTypeArguments()[0] == McpSchema.PromptMessage.class) {
          return MESSAGES;
        }
        if (pt.getActualTypeArguments()[0] == String.class) {
          return TEXTS;
        }
      }
      mistakes.add(BeanMethods.where(m) + ": an @McpPrompt method returns GetPromptResult,"
          + " List<PromptMessage>, PromptMessage, String or List<String>, not "
          + m.getGenericReturnType().getTypeName()
          + " (promptd serves the SYNC server type only)");
      return null;
    }

    /** Strings are the assistant's messages, as Spring AI makes them. */
    @SuppressWarnings("unchecked")
    GetPromptResult wrap(
        @Nullable Object value, @Nullable String description, String name, SdkJson json) {
      if (value == null) {
        throw McpException.internal("prompt '" + name + "' rendered nothing");
      }
      return switch (this) {
        case TEXT ->
          GetPromptResult.of(description, List.of(PromptMessage.assistant((String) value)));
        case TEXTS ->
          GetPromptResult.of(
              description,
              ((List<String>) value).stream().map(PromptMessage::assistant).toList());
        case MESSAGE ->
          json.result(new McpSchema.GetPromptResult(
              description, List.of((McpSchema.PromptMessage) value), null));
        case MESSAGES ->
          json.result(new McpSchema.GetPromptResult(
              description, List.copyOf((List<McpSchema.PromptMessage>) value), null));
        case RESULT -> json.result((McpSchema.GetPromptResult) value);
      };
    }
  }

  /** The prompt as promptd serves it. */
  PromptDefinition definition(SdkJson json) {
    List<PromptArgument> declared = new ArrayList<>();
    Map<String, BeanArgument> byName = new HashMap<>();
    JsonObject.Builder rules = JsonObject.builder();
    for (BeanArgument a : arguments) {
      declared.add(a.declared());
      byName.put(a.field().name(), a);
      rules.put(a.field().name(), a.rules());
    }
    JsonObject.Builder meta =
        providedMeta == null ? JsonObject.builder() : providedMeta.toBuilder();
    JsonObject published = rules.build();
    if (!published.isEmpty()) {
      meta.put(ArgumentForms.ARGUMENTS_META, published);
    }
    JsonObject built = meta.build();
    String description = annotation.description().isEmpty() ? null : annotation.description();
    Prompt prompt = new Prompt(
        name,
        annotation.title().isEmpty() ? null : annotation.title(),
        description,
        declared,
        List.of(),
        built.isEmpty() ? null : built);
    return new PromptDefinition(prompt, new Renderer(description, byName, json), completer(byName));
  }

  /**
   * The {@code @McpComplete} method's completer, for every argument; without one, an enum
   * argument's constants that start with the value.
   */
  private ArgumentCompleter completer(Map<String, BeanArgument> byName) {
    ArgumentCompleter own = completer;
    if (own != null) {
      return own;
    }
    return (argument, value, context) -> {
      BeanArgument a = byName.get(argument);
      if (a == null || a.field().choices().isEmpty()) {
        return Completion.EMPTY;
      }
      String prefix = value.toLowerCase(Locale.ROOT);
      return Completion.of(a.field().choices().stream()
          .filter(c -> c.toLowerCase(Locale.ROOT).startsWith(prefix))
          .toList());
    };
  }

  /** Calls the method with the arguments read as its parameters' types. */
  private final class Renderer implements PromptRenderer {
    private final @Nullable String description;
    private final Map<String, BeanArgument> byName;
    private final SdkJson json;

    Renderer(@Nullable String description, Map<String, BeanArgument> byName, SdkJson json) {
      this.description = description;
      this.byName = byName;
      this.json = json;
    }

    @Override
    public GetPromptResult render(Map<String, String> given) {
      @Nullable Object[] values = new Object[params.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = params.get(i).value(given);
      }
      for (BeanArgument a : arguments) {
        String v = given.get(a.field().name());
        if (a.type().isPrimitive() && (v == null || v.isEmpty())) {
          throw McpException.invalidParams(
              "prompt '" + name + "': missing required argument '" + a.field().name() + "'");
        }
      }
      return result.wrap(BeanMethods.call(bean, method, values), description, name, json);
    }

    @Override
    public @Nullable ArgumentField field(String argument) {
      BeanArgument a = byName.get(argument);
      return a == null ? null : a.field();
    }

    @Override
    public List<ArgumentsNeeded.Question> check(Map<String, String> given) {
      List<ArgumentsNeeded.Question> out = new ArrayList<>();
      for (BeanArgument a : arguments) {
        ArgumentsNeeded.Question q = a.check(given.get(a.field().name()), name);
        if (q != null) {
          out.add(q);
        }
      }
      return out;
    }
  }
}
