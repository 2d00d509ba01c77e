package io.promptd.mcp.annotations;

import io.promptd.mcp.api.Stability;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link PromptMethod} method's parameter as one of the prompt's arguments. MCP sends every
 * argument as a string; the parameter's type says how it is read: {@code String},
 * {@code int}/{@code Integer}, {@code long}/{@code Long}, {@code double}/{@code Double},
 * {@code boolean}/{@code Boolean} (true or false), or an {@code enum} (a constant's name, ignoring
 * case). A value that does not read as its type is -32602 naming the argument (and a client that
 * can show forms is asked again). An argument not given is {@code null}: a primitive parameter must
 * be {@link #required()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@Stability(Stability.Tier.STABLE)
public @interface Arg {
  /**
   * The argument's name; empty (the default): the parameter's name, which needs the class compiled
   * with {@code -parameters}.
   */
  String name() default "";

  /** A display name; empty: none. */
  String title() default "";

  /** What the argument is for; empty: none. */
  String description() default "";

  /** Whether the prompt needs a value; default true. */
  boolean required() default true;

  /**
   * The only values allowed (checked, offered as completions and as a form's choices); none (the
   * default): any value, or an enum parameter's constants.
   */
  String[] values() default {};
}
