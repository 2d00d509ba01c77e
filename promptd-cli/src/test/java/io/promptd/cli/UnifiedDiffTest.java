package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class UnifiedDiffTest {
  @Test
  void equalTextsHaveNoDiff() {
    assertThat(UnifiedDiff.of("a", "x\ny\n", "b", "x\ny\n")).isEmpty();
  }

  @Test
  void farApartChangesMakeTwoHunksWithThreeLinesOfContext() {
    String a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
    String b = "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n";
    assertThat(UnifiedDiff.of("a/f", a, "b/f", b))
        .isEqualTo("--- a/f\n+++ b/f\n"
            + "@@ -1,5 +1,5 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n"
            + "@@ -10,3 +10,4 @@\n 10\n 11\n 12\n+13\n");
  }

  @Test
  void fromAndToNothing() {
    assertThat(UnifiedDiff.of("a", "", "b", "new\n"))
        .isEqualTo("--- a\n+++ b\n@@ -0,0 +1,1 @@\n+new\n");
    assertThat(UnifiedDiff.of("a", "old\n", "b", ""))
        .isEqualTo("--- a\n+++ b\n@@ -1,1 +0,0 @@\n-old\n");
  }

  @Test
  void tooLongTextsAreRefused() {
    String big = "x\n".repeat(3000);
    assertThatThrownBy(() -> UnifiedDiff.of("a", big, "b", big + "y\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too long to compare");
  }
}
