package io.promptd.mcp.annotations;

import io.promptd.mcp.api.Stability;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public method as a prompt: {@link AnnotatedPrompts#of(Object)} turns it into a
 * {@link io.promptd.mcp.server.PromptDefinition}. Its parameters, each marked {@link Arg}, are the
 * prompt's arguments; it returns the rendered prompt as a {@code String} (one user message), a
 * {@link io.promptd.mcp.protocol.PromptMessage}, a {@code List<PromptMessage>} or a
 * {@link io.promptd.mcp.protocol.GetPromptResult}. Throwing
 * {@link io.promptd.mcp.jsonrpc.McpException} refuses the request with its code and message; any
 * other exception is -32603 with a safe message.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Stability(Stability.Tier.STABLE)
public @interface PromptMethod {
  /**
   * The prompt's name; empty (the default): the method's name in kebab-case, as prompt files are
   * named ({@code codeSummary()} is the prompt {@code code-summary}).
   */
  String name() default "";

  /** A display name; empty: none. */
  String title() default "";

  /** What the prompt is for; empty: none. */
  String description() default "";

  /** The scopes a caller must hold to see the prompt (OAuth); none (the default): every caller. */
  String[] scopes() default {};

  /**
   * Whether the server may ask the user for missing or invalid arguments (elicitation); default
   * true.
   */
  boolean elicit() default true;
}
