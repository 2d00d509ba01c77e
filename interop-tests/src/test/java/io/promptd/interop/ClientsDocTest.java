package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/clients.md's "Install links and npx": each command of its shell block, run as written (with
 * a real folder for {@code /srv/prompts}), prints the line its text block shows (with this run's
 * launcher for {@code /opt/promptd/bin/promptd}).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClientsDocTest {
  private static final Path DOC = Peers.ROOT.resolve("docs/clients.md");
  private static final String HEADING = "### Install links and npx";

  @TempDir
  Path dir;

  @Test
  void theInstallLinkCommandsPrintWhatTheDocShows() throws Exception {
    Path library = Files.createDirectories(dir.resolve("srv-prompts"));
    Path launcher = PromptdServer.launcher(dir.resolve("bin"));
    List<List<String>> commands =
        DocCommands.commands(DocCommands.block(DOC, HEADING, "sh"), Map.of());
    List<String> shown = DocCommands.block(DOC, HEADING, "text").lines().toList();
    assertThat(commands).hasSize(shown.size()).hasSizeGreaterThanOrEqualTo(3);
    for (int i = 0; i < commands.size(); i++) {
      List<String> words = commands.get(i);
      assertThat(words.subList(0, 2)).containsExactly("./promptd", "clients");
      String[] args = words.subList(2, words.size()).stream()
          .map(w -> w.equals("/srv/prompts") ? library.toString() : w)
          .toArray(String[]::new);
      assertThat(PromptdServer.clients(launcher, args))
          .as(String.join(" ", words))
          .isEqualTo(shown
              .get(i)
              .replace("/opt/promptd/bin/promptd", launcher.toString())
              .replace("/srv/prompts", library.toString()));
    }
  }
}
