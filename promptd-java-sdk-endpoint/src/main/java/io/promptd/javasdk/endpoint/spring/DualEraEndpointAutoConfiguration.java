package io.promptd.javasdk.endpoint.spring;

import io.promptd.javasdk.endpoint.DualEraServlet;
import io.promptd.javasdk.spring.PromptdPromptsAutoConfiguration;
import io.promptd.library.Library;
import io.promptd.mcp.api.Stability;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * A Spring Boot servlet web application serves the prompt folder of {@code promptd.prompts.dirs}
 * (the library {@link PromptdPromptsAutoConfiguration} opens and watches) in both protocol eras at
 * one URL: a {@link DualEraServlet#serving} registered at {@code promptd.endpoint.path} (default
 * {@code /mcp}), with async support on. {@code promptd.endpoint.enabled=false} leaves it out, for
 * an application whose own MCP server (Spring AI's, say) has that path.
 */
@AutoConfiguration(after = PromptdPromptsAutoConfiguration.class)
@ConditionalOnClass({ServletRegistrationBean.class, DualEraServlet.class})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(
    prefix = "promptd.endpoint",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@ConditionalOnBean(Library.class)
@Stability(Stability.Tier.EXPERIMENTAL)
public class DualEraEndpointAutoConfiguration {
  /** For Spring. */
  public DualEraEndpointAutoConfiguration() {}

  /**
   * The library's prompts in both eras at {@code promptd.endpoint.path}; the servlet container
   * destroys the servlet, and with it both SDK servers, when the application stops.
   */
  @Bean
  @ConditionalOnMissingBean(name = "promptdDualEraEndpoint")
  public ServletRegistrationBean<DualEraServlet> promptdDualEraEndpoint(
      Library promptdLibrary, Environment environment) {
    String path = environment.getProperty("promptd.endpoint.path", "/mcp").strip();
    if (!path.startsWith("/") || path.contains("*")) {
      throw new IllegalStateException(
          "promptd.endpoint.path must be a path starting with '/' and without '*', got '" + path
              + "'");
    }
    ServletRegistrationBean<DualEraServlet> registration =
        new ServletRegistrationBean<>(DualEraServlet.serving(promptdLibrary.catalog(), path), path);
    registration.setName("promptd-dual-era-endpoint");
    registration.setAsyncSupported(true);
    registration.setLoadOnStartup(1);
    return registration;
  }
}
