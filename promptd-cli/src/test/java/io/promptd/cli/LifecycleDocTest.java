package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.StoreCliTest.Result;
import io.promptd.store.PromptStore;
import io.promptd.store.StoreUrl;
import io.promptd.store.testing.TestPostgres;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * docs/lifecycle.md's command blocks for A/B splits and protected labels, run as written against a
 * real PostgreSQL (the store's URL for {@code URL}): each command succeeds and does what its
 * comment says.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class LifecycleDocTest {
  @Test
  void theSplitLinesSplitALabelAndSettingItEndsTheSplit() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    try (PromptStore store = PromptStore.open(StoreUrl.parse(url))) {
      for (int v = 1; v <= 8; v++) {
        store.publish(
            Map.of(
                "review.prompt.md", ("Review, take " + v + "\n").getBytes(StandardCharsets.UTF_8)),
            "alice");
      }
    }
    List<List<String>> lines = commands("## A/B splits", url);
    assertThat(lines).hasSize(2);

    Result split = StoreCliTest.run(lines.get(0));
    assertThat(split.status()).as(split.err()).isZero();
    assertThat(labels(url))
        .isEqualTo("PATH\tLABEL\tVERSION\tSPLIT\nreview.prompt.md\tproduction\t7\t7:90 8:10\n");
    Result set = StoreCliTest.run(lines.get(1));
    assertThat(set.status()).as(set.err()).isZero();
    assertThat(labels(url)).isEqualTo("PATH\tLABEL\tVERSION\nreview.prompt.md\tproduction\t8\n");
  }

  @Test
  void theProtectLinesProtectAndUnprotectTheLabel() throws Exception {
    String url = TestPostgres.get().newDatabaseUrl();
    List<List<String>> lines = commands("## Protected labels", url);
    assertThat(lines).hasSize(2);
    Result protect = StoreCliTest.run(lines.get(0));
    assertThat(protect.status()).as(protect.err()).isZero();
    assertThat(protect.out())
        .isEqualTo("label 'production' is protected: moving it over the management API needs the"
            + " scope 'promote:production'\n");
    Result unprotect = StoreCliTest.run(lines.get(1));
    assertThat(unprotect.status()).as(unprotect.err()).isZero();
    assertThat(unprotect.out()).isEqualTo("label 'production' is no longer protected\n");
    Result again = StoreCliTest.run(lines.get(1));
    assertThat(again.status()).as("unprotect of a label that is not protected").isEqualTo(2);
  }

  /**
   * The commands of the first block after {@code heading}, each as its arguments after
   * {@code promptd}: the comment dropped, {@code URL} the store's.
   */
  private static List<List<String>> commands(String heading, String url) throws Exception {
    List<List<String>> commands = new ArrayList<>();
    for (String line : DocLines.block("lifecycle.md", heading, "sh").split("\n")) {
      String command = line.contains("#") ? line.substring(0, line.indexOf('#')) : line;
      List<String> words = new ArrayList<>(Arrays.asList(command.strip().split("\\s+")));
      assertThat(words.removeFirst()).as(line).isEqualTo("promptd");
      words.replaceAll(w -> w.equals("URL") ? url : w);
      commands.add(words);
    }
    return commands;
  }

  private static String labels(String url) throws Exception {
    Result list = StoreCliTest.run(List.of("label", "list", "--store", url, "--tsv"));
    assertThat(list.status()).as(list.err()).isZero();
    return list.out();
  }
}
