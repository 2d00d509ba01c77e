package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.server.PromptDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd import}: each format's files become native files that render as the originals did;
 * what cannot be carried over is said, and such files are not written.
 */
class ImporterTest {
  @TempDir
  Path source;

  @TempDir
  Path target;

  private static List<String> texts(Library library, String name, Map<String, String> args) {
    return render(library, name, args).messages().stream()
        .map(PromptMessage.class::cast)
        .map(m -> m.role() + ": " + text(m))
        .toList();
  }

  @Test
  void everyFormatBecomesNativeAndRendersTheSame() throws Exception {
    write(
        source,
        ".claude/commands/fix.md",
        "---\nargument-hint: [issue] [priority]\n---\nFix $1 ($2). All: $ARGUMENTS\n");
    write(source, ".codex/prompts/ship.md", "Ship $FEATURE to $1\n");
    write(source, ".cursor/commands/tidy.md", "# Tidy up\nRemove dead code.\n");
    write(
        source,
        ".gemini/commands/git/log.toml",
        "description = \"Summarize\"\nprompt = \"Summarize {{args}}\"\n");
    write(
        source,
        ".github/prompts/doc.prompt.md",
        "---\ndescription: Document\n---\nDocument ${input:symbol:the symbol}\n");
    write(
        source,
        "greet.prompt",
        "---\ninput:\n  schema:\n    name: string\n---\n{{role \"system\"}}\nBe kind.\n"
            + "{{role \"user\"}}\nHi {{name}}{{#if name}}!{{/if}}\n");
    write(
        source,
        "ask.prompty",
        "---\ndescription: Ask\ninputs:\n  q:\n    type: string\n---\nuser:\n{{ q }}\n");
    write(source, "native.prompt.md", "---\ndescription: Native\n---\nAs is.\n");
    List<Importer.Converted> results =
        Importer.convert(source, target, false, LibraryOptions.defaults().withCacheDirectory(null));
    assertThat(results)
        .allSatisfy(
            r -> assertThat(r.target()).as("%s: %s", r.source(), r.notes()).isNotNull());
    assertThat(results).hasSize(8);
    try (Library before = load(source);
        Library after = load(target)) {
      assertThat(after.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactlyInAnyOrderElementsOf(
              before.catalog().all().stream().map(PromptDefinition::name).toList());
      Map<String, Map<String, String>> cases = Map.of(
          "fix", Map.of("issue", "#12", "priority", "high"),
          "ship", Map.of("FEATURE", "login", "arg1", "prod"),
          "tidy", Map.of("arguments", "in src/"),
          "git-log", Map.of("args", "last week"),
          "doc", Map.of("symbol", "Library.load"),
          "greet", Map.of("name", "Ada"),
          "ask", Map.of("q", "Why?"),
          "native", Map.of());
      cases.forEach((name, args) ->
          assertThat(texts(after, name, args)).as(name).isEqualTo(texts(before, name, args)));
      assertThat(texts(after, "tidy", Map.of())).isEqualTo(texts(before, "tidy", Map.of()));
      assertThat(texts(after, "fix", Map.of("issue", "#12")))
          .isEqualTo(texts(before, "fix", Map.of("issue", "#12")));
      assertThat(after.diagnostics()).noneMatch(Diagnostic::isError);
    }
    assertThat(results)
        .filteredOn(r -> r.source().toString().endsWith("fix.md"))
        .singleElement()
        .satisfies(r -> assertThat(r.notes()).anyMatch(n -> n.contains("$ARGUMENTS became")));
  }

  @Test
  void whatCannotBeCarriedOverIsSaidAndNotWritten() throws Exception {
    write(source, ".claude/commands/braces.md", "Use {{curly}} braces for $ARGUMENTS\n");
    write(source, "broken.prompt", "---\ninput:\n  schema:\n    x: string\n---\n{{media url=x}}\n");
    write(source, "ok.prompt.md", "---\ndescription: ok\n---\nOK\n");
    Files.createDirectories(target);
    Files.writeString(target.resolve("ok.prompt.md"), "already here\n");
    List<Importer.Converted> results =
        Importer.convert(source, target, false, LibraryOptions.defaults().withCacheDirectory(null));
    assertThat(results).extracting(Importer.Converted::target).containsOnlyNulls();
    assertThat(results)
        .flatExtracting(Importer.Converted::notes)
        .anyMatch(n -> n.contains("Mustache would read as tags"))
        .anyMatch(n -> n.contains("broken.prompt:6: error: {{media url=x}}"))
        .anyMatch(n -> n.contains("exists (--force overwrites)"));
    assertThat(Files.readString(target.resolve("ok.prompt.md"))).isEqualTo("already here\n");
    assertThat(Importer.convert(
            source, target, true, LibraryOptions.defaults().withCacheDirectory(null)))
        .filteredOn(r -> r.target() != null)
        .hasSize(1);
  }
}
