package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Flyway's outOfOrder mode (which warns of itself) is asked for only when a store needs it. */
class SchemaModeTest {
  @Test
  void aNewStoreOrOneAReleaseBehindNeedsNoOutOfOrderMode() {
    assertThat(Schema.needsOutOfOrder(Set.of())).isFalse();
    assertThat(Schema.needsOutOfOrder(Set.of("1", "2", "3", "4", "5", "6"))).isFalse();
    assertThat(Schema.needsOutOfOrder(Set.copyOf(Schema.MIGRATIONS))).isFalse();
  }

  @Test
  void aMigrationMissingBelowAnAppliedOneNeedsIt() {
    assertThat(Schema.needsOutOfOrder(Set.of("1", "2", "3", "4", "6"))).isTrue();
  }
}
