package io.promptd.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/** The invariant every target checks on what reaches a client: words, never Java internals. */
public final class Safe {
  private static final List<String> INTERNALS = List.of(
      "java.", "javax.", "io.promptd.", "Exception", "\tat ", "org.eclipse.", "NullPointer");

  private Safe() {}

  /**
   * Fails when {@code text} (an error message, an answer) names a Java class or carries a stack
   * trace.
   */
  public static void message(String text) {
    assertThat(text).isNotNull();
    for (String internal : INTERNALS) {
      assertThat(text).as("a message a client sees").doesNotContain(internal);
    }
  }
}
