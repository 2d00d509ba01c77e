package io.promptd.mcp.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How far a public type of promptd's libraries may change between releases. Every public type of an
 * exported package carries one (each module's {@code ApiListingTest} fails on a type without it); a
 * nested type has its enclosing type's.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Stability(Stability.Tier.STABLE)
public @interface Stability {
  /** The type's tier. */
  Tier value();

  /** The tiers. */
  enum Tier {
    /** Changed incompatibly only in a major release, and deprecated for one minor release first. */
    STABLE,
    /**
     * May change in any minor release: the 2026-07-28 era's extensions, the prompt store, the Git
     * source, the SPI for transports and the adapters, whose outside specifications still move.
     */
    EXPERIMENTAL
  }
}
