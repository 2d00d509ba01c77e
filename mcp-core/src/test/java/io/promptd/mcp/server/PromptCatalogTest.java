package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The catalog's persistent tree: the same answers as a sorted map, snapshots that never change, a
 * growing version.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PromptCatalogTest {

  @Test
  void randomEditsAgreeWithASortedMap() {
    Random random = new Random(42);
    PromptCatalog catalog = PromptCatalog.create();
    TreeMap<String, PromptDefinition> model = new TreeMap<>();
    for (int step = 0; step < 20_000; step++) {
      String name = "p" + random.nextInt(2_000);
      if (random.nextInt(3) == 0) {
        assertThat(catalog.remove(name)).isEqualTo(model.remove(name) != null);
      } else {
        PromptDefinition p = prompt(name);
        catalog.put(p);
        model.put(name, p);
      }
      if (step % 1_000 == 0) {
        assertThat(catalog.all()).containsExactlyElementsOf(model.values());
      }
    }
    assertThat(catalog.all()).containsExactlyElementsOf(model.values());
    assertThat(catalog.size()).isEqualTo(model.size());
    model.forEach((name, p) -> assertThat(catalog.get(name)).containsSame(p));
    assertThat(catalog.get("absent")).isEmpty();
    // AVL: height at most 1.44 log2(n + 2).
    assertThat(catalog.snapshot().height())
        .isLessThanOrEqualTo((int) (1.45 * log2(model.size() + 2)));
  }

  @Test
  void pagesWalkEveryPromptOnceFromAnyCursor() {
    PromptCatalog catalog = PromptCatalog.of(IntStream.range(0, 1_000)
        .mapToObj(i -> prompt(String.format("p%04d", i)))
        .toList());
    PromptCatalog.Snapshot snapshot = catalog.snapshot();
    List<String> seen = new ArrayList<>();
    String after = null;
    PromptCatalog.Page page;
    do {
      page = snapshot.page(after, 7);
      page.items().forEach(p -> seen.add(p.name()));
      after = page.items().isEmpty() ? null : page.items().getLast().name();
    } while (page.more());
    assertThat(seen)
        .isEqualTo(catalog.all().stream().map(PromptDefinition::name).toList());
    // A cursor naming a prompt that is gone still continues after it.
    assertThat(names(snapshot.page("p0500x", 3))).containsExactly("p0501", "p0502", "p0503");
    assertThat(names(snapshot.page("", 2))).containsExactly("p0000", "p0001");
    PromptCatalog.Page last = snapshot.page("p0997", 5);
    assertThat(names(last)).containsExactly("p0998", "p0999");
    assertThat(last.more()).isFalse();
    assertThat(snapshot.page("p0997", 2).more()).isFalse();
    assertThat(snapshot.page("p0996", 2).more()).isTrue();
    assertThat(snapshot.page("zzz", 5).items()).isEmpty();
    assertThat(PromptCatalog.create().snapshot().page(null, 5))
        .isEqualTo(new PromptCatalog.Page(List.of(), false));
  }

  @Test
  void aSnapshotNeverChangesWhileTheCatalogIsEdited() {
    PromptCatalog catalog = PromptCatalog.of(
        IntStream.range(0, 100).mapToObj(i -> prompt(String.format("p%03d", i))).toList());
    PromptCatalog.Snapshot before = catalog.snapshot();
    List<String> walked = names(before.page(null, 1_000));
    catalog.update(editor -> {
      editor.remove("p010");
      editor.put(prompt("p010a"));
      editor.put(prompt("p050"));
    });
    assertThat(names(before.page(null, 1_000))).isEqualTo(walked);
    assertThat(before.get("p010")).isNotNull();
    assertThat(before.get("p010a")).isNull();
    assertThat(catalog.snapshot().get("p010")).isNull();
    assertThat(catalog.snapshot().get("p010a")).isNotNull();
  }

  @Test
  void theVersionGrowsOncePerChangeThatAlteredTheCatalog() {
    PromptCatalog catalog = PromptCatalog.create();
    AtomicInteger heard = new AtomicInteger();
    catalog.onChange(heard::incrementAndGet);
    assertThat(catalog.version()).isZero();
    PromptDefinition a = prompt("a");
    catalog.put(a);
    assertThat(catalog.version()).isEqualTo(1);
    catalog.put(a); // the same prompt again: no change
    assertThat(catalog.remove("missing")).isFalse();
    catalog.update(editor -> {});
    assertThat(catalog.version()).isEqualTo(1);
    catalog.update(editor -> {
      editor.put(prompt("b"));
      editor.put(prompt("c"));
      editor.remove("a");
    });
    assertThat(catalog.version()).isEqualTo(2);
    catalog.replaceAll(List.of());
    assertThat(catalog.version()).isEqualTo(3);
    catalog.replaceAll(List.of());
    assertThat(catalog.version()).isEqualTo(3);
    assertThat(heard).hasValue(3);
  }

  @Test
  void replaceAllRefusesDuplicateNamesAndEditorsKeepTheLastOne() {
    assertThatThrownBy(() -> PromptCatalog.of(List.of(prompt("x"), prompt("x"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'x'");
    PromptCatalog catalog = PromptCatalog.create();
    PromptDefinition second = prompt("x");
    catalog.update(editor -> editor.replaceAll(List.of(prompt("x"), second, prompt("a"))));
    assertThat(catalog.get("x")).containsSame(second);
    assertThat(catalog.all()).extracting(PromptDefinition::name).containsExactly("a", "x");
    catalog.update(editor -> assertThat(editor.contains("a")).isTrue());
  }

  @Test
  void aLargeCatalogEditsInPlaceOfCopying() {
    List<PromptDefinition> prompts = IntStream.range(0, 100_000)
        .mapToObj(i -> prompt(String.format("p%06d", i)))
        .toList();
    PromptCatalog catalog = PromptCatalog.of(prompts);
    // Not a timing: 100,000 single edits would take minutes if each copied the catalog, here well
    // under a second.
    for (int i = 0; i < 100_000; i += 1) {
      catalog.put(prompt(String.format("p%06d", i)));
    }
    assertThat(catalog.size()).isEqualTo(100_000);
    assertThat(catalog.version()).isEqualTo(100_001);
  }

  private static List<String> names(PromptCatalog.Page page) {
    return page.items().stream().map(PromptDefinition::name).toList();
  }

  private static double log2(int n) {
    return Math.log(n) / Math.log(2);
  }

  private static PromptDefinition prompt(String name) {
    return PromptDefinition.of(
        Prompt.of(name, null, List.of()), args -> List.of(PromptMessage.user(name)));
  }
}
