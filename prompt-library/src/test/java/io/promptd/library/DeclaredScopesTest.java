package io.promptd.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.library.internal.index.FolderDefaults;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link LibraryFiles#declaredScopes}: what one version of a file declares, judged from its bytes
 * alone.
 */
class DeclaredScopesTest {
  private static Set<String> of(String path, String text) {
    return LibraryFiles.declaredScopes(path, text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void promptResourceAndFolderFilesDeclareTheirScopes() {
    assertThat(of("ops/rotate.prompt.md", "---\nscopes: [ops, admin]\n---\nRotate\n"))
        .containsExactlyInAnyOrder("ops", "admin");
    assertThat(of("open.prompt.md", "---\nscopes: []\n---\nOpen\n")).isEmpty();
    assertThat(of("plain.prompt.md", "Just text\n")).isNull();
    assertThat(of("ops/_folder.yaml", "scopes: [ops]\n")).containsExactly("ops");
    assertThat(of("_folder.yaml", "# nothing set\n")).isNull();
    assertThat(of(
            "docs/guide.resource.md", "---\nuri: promptd:///guide\nscopes: [team]\n---\nGuide\n"))
        .containsExactly("team");
  }

  @Test
  void otherFilesDeclareNothing() {
    assertThat(of("partials/footer.md", "---\nscopes: [ops]\n---\n")).isNull();
    assertThat(of("skills/notes/SKILL.md", "---\nname: notes\ndescription: d\n---\nBody\n"))
        .isNull();
  }

  @Test
  void whatCannotBeReadDeclaresAScopeNoTokenHolds() {
    Set<String> broken = of("ops/_folder.yaml", "scopes: [ops\n");
    assertThat(broken).isEqualTo(FolderDefaults.UNREADABLE);
    assertThat(broken.iterator().next()).contains(" ");
    assertThat(of("bad.prompt.md", "---\nscopes: [\"a b\"]\n---\nText\n"))
        .isEqualTo(FolderDefaults.UNREADABLE);
    String deep = "---\nx: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n---\nText\n";
    // Too deep for YAML: read as the lenient formats read front matter, it declares nothing (the
    // folder's apply).
    assertThat(of("deep.prompt.md", deep)).isNull();
    String deepFolder = "x: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n";
    assertThat(of("ops/_folder.yaml", deepFolder)).isEqualTo(FolderDefaults.UNREADABLE);
    assertThat(LibraryFiles.declaredScopes("x.prompt.md", new byte[] {(byte) 0xC3, 0x28}))
        .isEqualTo(FolderDefaults.UNREADABLE);
  }
}
