package io.promptd.mcp.annotations;

import io.promptd.mcp.api.Stability;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public method that suggests values for one argument of a {@link PromptMethod}, for
 * {@code completion/complete}. It takes what the user typed so far ({@code String}), optionally
 * followed by the arguments already filled in ({@code Map<String, String>}), and returns
 * {@code List<String>} (at most 100 are sent) or a {@link io.promptd.mcp.protocol.Completion}.
 * Without one, an argument with {@link Arg#values()} (or an enum parameter) is completed from those
 * values.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Stability(Stability.Tier.STABLE)
public @interface Complete {
  /** The prompt's name, as {@link PromptMethod#name()} gives it (or its method's name). */
  String prompt();

  /** The argument's name. */
  String argument();
}
