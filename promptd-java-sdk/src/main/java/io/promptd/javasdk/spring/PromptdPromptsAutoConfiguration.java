package io.promptd.javasdk.spring;

import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.promptd.javasdk.SdkPrompts;
import io.promptd.javasdk.SdkSkills;
import io.promptd.library.Library;
import io.promptd.library.LibraryOptions;
import io.promptd.library.LibrarySource;
import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * A Spring AI (or any Spring Boot) MCP server serves a promptd prompt folder from one property:
 * {@code promptd.prompts.dirs=/path/to/prompts} (a list: comma-separated, or indexed). The folders
 * are loaded and watched as {@code promptd serve} does; their prompts and completions are beans of
 * the types Spring AI's MCP server collects ({@code List<SyncPromptSpecification>},
 * {@code List<SyncCompletionSpecification>}), and once the application's {@link McpSyncServer}
 * exists it is kept in step with the files ({@link SdkPrompts#keepInSync}). The folders' Agent
 * Skills are served as resources ({@code List<SyncResourceSpecification>}, {@link SdkSkills}): the
 * files of each skill at {@code skill://<skill-path>/<file-path>}, kept in step too; the SDK has no
 * Skills extension, so {@code skills/list} is not answered. {@code promptd.prompts.watch=false}
 * turns reloading off; {@code promptd.prompts.form-first=true} lists every argument as not required
 * ({@link SdkPrompts#formFirst()}). Prompts and skills that require OAuth scopes are left out, as
 * {@link SdkPrompts#of} and {@link SdkSkills#of(Library)} do.
 */
@AutoConfiguration
@ConditionalOnClass({McpSyncServer.class, Library.class})
@ConditionalOnProperty(prefix = "promptd.prompts", name = "dirs")
@Stability(Stability.Tier.STABLE)
public class PromptdPromptsAutoConfiguration {
  private static final System.Logger LOG = System.getLogger("io.promptd.javasdk");

  /** For Spring. */
  public PromptdPromptsAutoConfiguration() {}

  /**
   * The prompt library of {@code promptd.prompts.dirs}, watched unless
   * {@code promptd.prompts.watch=false}.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public Library promptdLibrary(Environment environment) throws IOException {
    List<Path> dirs = Binder.get(environment)
        .bind("promptd.prompts.dirs", Bindable.listOf(String.class))
        .orElse(List.of())
        .stream()
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .map(Path::of)
        .toList();
    if (dirs.isEmpty()) {
      throw new IllegalStateException("promptd.prompts.dirs names no folder");
    }
    Library library = Library.open(LibrarySource.folders(dirs), LibraryOptions.defaults());
    if (environment.getProperty("promptd.prompts.watch", Boolean.class, true)) {
      library.watch();
    }
    return library;
  }

  /** The library's prompts for the SDK, form-first when {@code promptd.prompts.form-first=true}. */
  @Bean
  @ConditionalOnMissingBean
  public SdkPrompts promptdSdkPrompts(Library promptdLibrary, Environment environment) {
    SdkPrompts prompts = SdkPrompts.of(promptdLibrary.catalog());
    return formFirst(environment) ? prompts.formFirst() : prompts;
  }

  /** Whether {@code promptd.prompts.form-first=true}: every argument listed as not required. */
  static boolean formFirst(Environment environment) {
    return environment.getProperty("promptd.prompts.form-first", Boolean.class, false);
  }

  /** The prompts as Spring AI's MCP server collects them. */
  @Bean
  public List<SyncPromptSpecification> promptdPromptSpecifications(SdkPrompts promptdSdkPrompts) {
    return promptdSdkPrompts.syncPrompts();
  }

  /** The completions as Spring AI's MCP server collects them (fixed when the server is built). */
  @Bean
  public List<SyncCompletionSpecification> promptdCompletionSpecifications(
      SdkPrompts promptdSdkPrompts) {
    return promptdSdkPrompts.syncCompletions();
  }

  /** The library's skills for the SDK, as resources. */
  @Bean
  @ConditionalOnMissingBean
  public SdkSkills promptdSdkSkills(Library promptdLibrary) {
    return SdkSkills.of(promptdLibrary);
  }

  /** The skills' files as Spring AI's MCP server collects resources. */
  @Bean
  public List<SyncResourceSpecification> promptdSkillResourceSpecifications(
      SdkSkills promptdSdkSkills) {
    return promptdSdkSkills.syncResources();
  }

  /**
   * Once every singleton exists, keeps the application's MCP server in step with the files; stops
   * with the context.
   */
  @Bean
  public PromptsSync promptdPromptsSync(
      SdkPrompts promptdSdkPrompts,
      SdkSkills promptdSdkSkills,
      ObjectProvider<McpSyncServer> servers,
      BeanFactory beans) {
    return new PromptsSync(
        promptdSdkPrompts, promptdSdkSkills, servers, () -> beans.containsBean(DUAL_ERA_ENDPOINT));
  }

  /**
   * The bean promptd-java-sdk-endpoint's auto-configuration serves the library with, when it is on
   * the class path: then no McpSyncServer of the application's is needed.
   */
  static final String DUAL_ERA_ENDPOINT = "promptdDualEraEndpoint";

  /** What {@link #promptdPromptsSync} returns. */
  public static final class PromptsSync implements SmartInitializingSingleton, DisposableBean {
    private final SdkPrompts prompts;
    private final SdkSkills skills;
    private final ObjectProvider<McpSyncServer> servers;
    private final BooleanSupplier endpoint;
    private volatile AutoCloseable sync = () -> {};

    PromptsSync(
        SdkPrompts prompts,
        SdkSkills skills,
        ObjectProvider<McpSyncServer> servers,
        BooleanSupplier endpoint) {
      this.prompts = prompts;
      this.skills = skills;
      this.servers = servers;
      this.endpoint = endpoint;
    }

    @Override
    public void afterSingletonsInstantiated() {
      McpSyncServer server = servers.getIfAvailable();
      if (server == null) {
        if (endpoint.getAsBoolean()) {
          return; // promptd's own endpoint serves the library, in step with the files
        }
        LOG.log(
            Level.WARNING,
            "promptd.prompts.dirs is set but the application has no McpSyncServer: prompt files"
                + " are not kept in sync");
        return;
      }
      AutoCloseable promptsSync = prompts.keepInSync(server);
      AutoCloseable skillsSync = skills.keepInSync(server);
      sync = () -> {
        try (promptsSync) {
          skillsSync.close();
        }
      };
    }

    @Override
    public void destroy() throws Exception {
      sync.close();
    }
  }
}
