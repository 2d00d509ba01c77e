package io.promptd.javasdk.spring;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.promptd.javasdk.SdkPrompts;
import io.promptd.library.Library;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.server.PromptDefinition;
import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Locale;
import org.springframework.ai.mcp.annotation.McpComplete;
import org.springframework.ai.mcp.annotation.McpPrompt;
import org.springframework.ai.mcp.server.common.autoconfigure.annotations.McpServerAnnotationScannerAutoConfiguration.ServerMcpAnnotatedBeans;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * A Spring AI MCP server serves its beans' {@code @McpPrompt} methods (and promptd's own
 * {@code @PromptMethod} ones) through promptd, with no change to the application: read at start-up
 * by {@link PromptdBeanPrompts}, handed to Spring AI's server by {@link SdkPrompts}, so that each
 * {@code prompts/get} has promptd's argument checks (a missing required argument, an unknown one, a
 * value that is not the parameter's type or not one of its enum's constants is -32602 naming it)
 * and each argument's type and choices are published in the prompt's {@code _meta}. Spring AI's own
 * registration of the same prompts and their {@code @McpComplete} methods is turned off (its
 * registry of annotated beans is replaced by one that leaves them out); its tools, resources and
 * resource completions are untouched.
 *
 * <p>{@code promptd.prompts.form-first=true} lists every argument as not required
 * ({@link SdkPrompts#formFirst()}). {@code promptd.prompts.beans=false} turns this off (Spring AI
 * serves the prompts itself). It applies to the SYNC server type with a stateful protocol
 * ({@code spring.ai.mcp.server.type} and {@code protocol} as Spring AI defaults them); with ASYNC
 * or STATELESS Spring AI keeps serving the prompts itself.
 */
@AutoConfiguration(
    beforeName =
        "org.springframework.ai.mcp.server.common.autoconfigure.annotations.McpServerAnnotationScannerAutoConfiguration")
@ConditionalOnClass(
    value = McpSyncServer.class,
    name = "org.springframework.ai.mcp.annotation.McpPrompt")
@ConditionalOnProperty(
    prefix = "promptd.prompts",
    name = "beans",
    havingValue = "true",
    matchIfMissing = true)
@Conditional(PromptdBeanPromptsAutoConfiguration.SyncStatefulServer.class)
@Stability(Stability.Tier.EXPERIMENTAL)
public class PromptdBeanPromptsAutoConfiguration {
  /** For Spring. */
  public PromptdBeanPromptsAutoConfiguration() {}

  /**
   * The beans' prompts, read once every bean is defined; a prompt folder's prompt of the same name
   * ({@code promptd.prompts.dirs}) is a mistake too.
   */
  @Bean
  @ConditionalOnMissingBean
  public PromptdBeanPrompts promptdBeanPrompts(
      ListableBeanFactory beans,
      ObjectProvider<McpJsonMapper> json,
      ObjectProvider<Library> library) {
    PromptdBeanPrompts prompts =
        PromptdBeanPrompts.read(beans, json.getIfAvailable(McpJsonDefaults::getMapper));
    Library files = library.getIfAvailable();
    if (files != null) {
      List<String> both = prompts.catalog().all().stream()
          .map(PromptDefinition::name)
          .filter(name -> files.catalog().get(name).isPresent())
          .toList();
      if (!both.isEmpty()) {
        throw new IllegalStateException("promptd: prompts " + both
            + " are both prompt methods and files in promptd.prompts.dirs; rename one of each");
      }
    }
    return prompts;
  }

  /** The beans' prompts as Spring AI's MCP server collects them. */
  @Bean
  public List<SyncPromptSpecification> promptdBeanPromptSpecifications(
      PromptdBeanPrompts promptdBeanPrompts, Environment environment) {
    SdkPrompts prompts = SdkPrompts.of(promptdBeanPrompts.catalog());
    return (PromptdPromptsAutoConfiguration.formFirst(environment) ? prompts.formFirst() : prompts)
        .syncPrompts();
  }

  /** The beans' completions as Spring AI's MCP server collects them. */
  @Bean
  public List<SyncCompletionSpecification> promptdBeanCompletionSpecifications(
      PromptdBeanPrompts promptdBeanPrompts) {
    return SdkPrompts.of(promptdBeanPrompts.catalog()).syncCompletions();
  }

  /** Spring AI's registry of annotated beans, without the prompts promptd serves. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(
      name =
          "org.springframework.ai.mcp.server.common.autoconfigure.annotations.McpServerAnnotationScannerAutoConfiguration")
  static class SpringAiRegistry {
    /**
     * Replaces Spring AI's registry (it makes its own only when there is none): its prompt
     * specifications see no {@code @McpPrompt} bean, its completions only the beans that complete
     * resources.
     */
    @Bean
    static ServerMcpAnnotatedBeans promptdServerAnnotatedBeanRegistry() {
      return new PromptsLeftOut();
    }
  }

  /** Spring AI's registry, leaving out the prompts promptd serves. */
  static final class PromptsLeftOut extends ServerMcpAnnotatedBeans {
    @Override
    public List<Object> getBeansByAnnotation(Class<? extends Annotation> annotation) {
      List<Object> beans = super.getBeansByAnnotation(annotation);
      if (annotation == McpPrompt.class) {
        return List.of();
      }
      if (annotation == McpComplete.class) {
        return beans.stream()
            .filter(b -> PromptdBeanPrompts.resourceCompletionsOnly(ClassUtils.getUserClass(b)))
            .toList();
      }
      return beans;
    }
  }

  /**
   * Spring AI's SYNC server type with a stateful protocol: the servers whose prompt specifications
   * are the {@link SyncPromptSpecification}s promptd gives.
   */
  static final class SyncStatefulServer implements Condition {
    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
      String type = context.getEnvironment().getProperty("spring.ai.mcp.server.type", "SYNC");
      String protocol = context.getEnvironment().getProperty("spring.ai.mcp.server.protocol", "");
      return type.strip().equalsIgnoreCase("SYNC")
          && !protocol.strip().toUpperCase(Locale.ROOT).equals("STATELESS");
    }
  }
}
