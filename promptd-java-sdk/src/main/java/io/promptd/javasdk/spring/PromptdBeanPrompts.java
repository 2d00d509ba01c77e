package io.promptd.javasdk.spring;

import static java.util.Objects.requireNonNull;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.promptd.mcp.annotations.AnnotatedPrompts;
import io.promptd.mcp.annotations.PromptMethod;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.server.ArgumentCompleter;
import io.promptd.mcp.server.PromptCatalog;
import io.promptd.mcp.server.PromptDefinition;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The prompts of an application's beans, read once at start-up into a promptd
 * {@link PromptCatalog}: Spring AI's {@link McpPrompt} methods (their {@code @McpArg} parameters
 * typed from their Java types, their {@link McpComplete} methods completing them) and promptd's own
 * {@link PromptMethod} ones. {@link PromptdBeanPromptsAutoConfiguration} serves the catalog on the
 * application's Spring AI MCP server through {@link io.promptd.javasdk.SdkPrompts}; it serves on
 * promptd's own server as well ({@code McpServer.builder().prompts(…)}).
 *
 * <p>Every mistake in every bean is reported at once, each naming its class and method: an
 * unsupported parameter or return type, an optional primitive, two prompts of one name, an
 * {@code @McpComplete} for a prompt no bean has, two for one prompt.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class PromptdBeanPrompts {
  private final PromptCatalog catalog;

  private PromptdBeanPrompts(PromptCatalog catalog) {
    this.catalog = catalog;
  }

  /**
   * The prompts of {@code beans}' singletons, creating the singletons that have prompt or
   * completion methods.
   *
   * @param beans the application's beans
   * @param json the SDK's JSON mapper, which reads what the methods return
   * @throws IllegalStateException listing every mistake, each with its class and method
   */
  public static PromptdBeanPrompts read(ListableBeanFactory beans, McpJsonMapper json) {
    requireNonNull(beans, "beans");
    Reading reading = new Reading(new SdkJson(requireNonNull(json, "json")));
    for (String name : beans.getBeanNamesForType(Object.class, false, false)) {
      Class<?> type = beans.getType(name, false);
      if (type != null && hasPromptMethods(ClassUtils.getUserClass(type))) {
        reading.bean(beans.getBean(name));
      }
    }
    return new PromptdBeanPrompts(PromptCatalog.of(reading.prompts()));
  }

  /** The beans' prompts, sorted by name; it does not change. */
  public PromptCatalog catalog() {
    return catalog;
  }

  /**
   * Whether a bean of {@code type} has an {@link McpPrompt}, a prompt's {@link McpComplete} or a
   * {@link PromptMethod} method, of any visibility.
   */
  static boolean hasPromptMethods(Class<?> type) {
    List<Method> methods;
    try {
      methods = methods(type);
    } catch (LinkageError e) {
      // A bean class whose optional dependencies are absent (Spring's own, often): none of ours.
      return false;
    }
    for (Method m : methods) {
      McpComplete c = m.getAnnotation(McpComplete.class);
      if (m.isAnnotationPresent(McpPrompt.class)
          || m.isAnnotationPresent(PromptMethod.class)
          || (c != null && !c.prompt().isEmpty())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every {@link McpComplete} method of {@code type} completes a resource, so that Spring
   * AI keeps registering them.
   */
  static boolean resourceCompletionsOnly(Class<?> type) {
    return methods(type).stream()
        .map(m -> m.getAnnotation(McpComplete.class))
        .allMatch(c -> c == null || c.prompt().isEmpty());
  }

  /** The methods of {@code type} and its superclasses, of any visibility, sorted by name. */
  private static List<Method> methods(Class<?> type) {
    List<Method> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (!m.isSynthetic()
            && !m.isBridge()
            && seen.add(m.getName() + Arrays.toString(m.getParameterTypes()))) {
          out.add(m);
        }
      }
    }
    out.sort(Comparator.comparing(Method::getName));
    return out;
  }

  private static void complete(
      Object bean,
      Method m,
      McpComplete c,
      Map<String, BeanPrompt> prompts,
      List<String> mistakes) {
    if (!c.uri().isEmpty()) {
      mistakes.add(BeanMethods.where(m) + ": @McpComplete names a prompt and a uri; give one");
      return;
    }
    if (hasResourceCompletion(bean)) {
      mistakes.add(BeanMethods.where(m) + ": a bean's @McpComplete methods complete prompts or"
          + " resources, not both: move the prompt's to a bean of their own");
      return;
    }
    BeanPrompt target = prompts.get(c.prompt());
    if (target == null) {
      mistakes.add(BeanMethods.where(m) + ": @McpComplete names prompt '" + c.prompt()
          + "', which no @McpPrompt method is");
      return;
    }
    ArgumentCompleter completer = BeanMethods.completer(bean, m, c.prompt(), mistakes);
    if (completer != null && !target.complete(completer)) {
      mistakes.add(BeanMethods.where(m) + ": prompt '" + c.prompt()
          + "' already has an @McpComplete method");
    }
  }

  private static boolean hasResourceCompletion(Object bean) {
    return methods(ClassUtils.getUserClass(bean)).stream()
        .map(m -> m.getAnnotation(McpComplete.class))
        .anyMatch(c -> c != null && !c.uri().isEmpty());
  }

  /** The prompts read so far from the beans, and the mistakes found. */
  private static final class Reading {
    private final SdkJson json;
    private final List<String> mistakes = new ArrayList<>();
    private final Map<String, BeanPrompt> prompts = new LinkedHashMap<>();
    /** promptd's own {@link PromptMethod} prompts, with the class that has each. */
    private final Map<String, PromptDefinition> promptd = new LinkedHashMap<>();

    private final Map<String, String> promptdOwners = new LinkedHashMap<>();
    /** The names of the prompt methods with mistakes: their completions are not checked. */
    private final Set<String> broken = new HashSet<>();
    /** Completions, checked once every bean's prompts are known. */
    private final List<Runnable> completions = new ArrayList<>();

    Reading(SdkJson json) {
      this.json = json;
    }

    void bean(Object bean) {
      Class<?> user = ClassUtils.getUserClass(bean);
      for (Method m : methods(user)) {
        McpPrompt p = m.getAnnotation(McpPrompt.class);
        if (p != null) {
          prompt(bean, m, p);
        }
        McpComplete c = m.getAnnotation(McpComplete.class);
        if (c != null && !c.prompt().isEmpty()) {
          completions.add(() -> {
            if (!broken.contains(c.prompt())) {
              complete(bean, m, c, prompts, mistakes);
            }
          });
        }
      }
      if (Arrays.stream(user.getMethods())
          .anyMatch(m -> m.isAnnotationPresent(PromptMethod.class))) {
        try {
          for (PromptDefinition d : AnnotatedPrompts.of(bean)) {
            String other = promptdOwners.putIfAbsent(d.name(), user.getName());
            if (other != null) {
              mistakes.add(user.getName() + ": prompt '" + d.name() + "' is a @PromptMethod of "
                  + other + " too");
            }
            promptd.put(d.name(), d);
          }
        } catch (IllegalArgumentException e) {
          mistakes.add(e.getMessage());
        }
      }
    }

    private void prompt(Object bean, Method m, McpPrompt p) {
      BeanPrompt prompt = BeanMethods.callable(m, "@McpPrompt", mistakes)
          ? BeanPrompt.of(bean, m, p, json, mistakes)
          : null;
      if (prompt == null) {
        broken.add(p.name().isEmpty() ? m.getName() : p.name());
        return;
      }
      BeanPrompt other = prompts.putIfAbsent(prompt.name, prompt);
      if (other != null) {
        mistakes.add(BeanMethods.where(m) + ": prompt '" + prompt.name + "' is "
            + BeanMethods.where(other.method) + " too");
      }
    }

    /**
     * Every prompt, sorted by name.
     *
     * @throws IllegalStateException listing every mistake
     */
    List<PromptDefinition> prompts() {
      completions.forEach(Runnable::run);
      for (String clash : promptd.keySet()) {
        BeanPrompt other = prompts.get(clash);
        if (other != null) {
          mistakes.add(BeanMethods.where(other.method) + ": prompt '" + clash + "' is a"
              + " @PromptMethod of " + promptdOwners.get(clash) + " too");
        }
      }
      if (mistakes.size() == 1) {
        throw new IllegalStateException("promptd: " + mistakes.getFirst());
      } else if (!mistakes.isEmpty()) {
        throw new IllegalStateException("promptd: " + mistakes.size()
            + " mistakes in the application's prompt methods:\n" + String.join("\n", mistakes));
      }
      List<PromptDefinition> all = new ArrayList<>(promptd.values());
      prompts.values().forEach(p -> all.add(p.definition(json)));
      all.sort(Comparator.comparing(PromptDefinition::name));
      return all;
    }
  }
}
