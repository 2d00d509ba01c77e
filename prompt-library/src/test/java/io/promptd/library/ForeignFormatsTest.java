package io.promptd.library;

import static io.promptd.library.Files2.formatted;
import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.prompt;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.server.PromptDefinition;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ForeignFormatsTest {
  @TempDir Path root;

  @Test
  void claudeCommandWithArgumentsPlaceholder() {
    write(root, ".claude/commands/fix-issue.md", """
        ---
        description: Fix a GitHub issue
        argument-hint: issue number and notes
        allowed-tools: Bash(git:*)
        ---
        Fix issue $ARGUMENTS following our standards.
        """);
    try (Library library = load(root)) {
      Prompt prompt = prompt(library, "fix-issue").prompt();
      assertThat(prompt.description()).isEqualTo("Fix a GitHub issue");
      assertThat(prompt.arguments())
          .containsExactly(new PromptArgument("arguments", null, "issue number and notes", false));
      assertThat(text(render(library, "fix-issue", Map.of("arguments", "#123 high $1 {{x}}")).messages().getFirst()))
          .isEqualTo("Fix issue #123 high $1 {{x}} following our standards.");
      assertThat(library.diagnostics()).isEmpty();
    }
  }

  @Test
  void claudePositionalArgumentsAreOneBasedByDefault() {
    write(root, ".claude/commands/review/pr.md", """
        ---
        argument-hint: [pr-number] [priority] [assignee]
        ---
        # Review PR #$1
        Priority $2, assign to $3. All: $ARGUMENTS
        """);
    try (Library library = load(root)) {
      Prompt prompt = prompt(library, "review-pr").prompt();
      assertThat(prompt.description()).isEqualTo("Review PR #$1");
      assertThat(prompt.arguments()).extracting(PromptArgument::name)
          .containsExactly("pr-number", "priority", "assignee");
      assertThat(text(render(library, "review-pr", Map.of("pr-number", "456", "priority", "high")).messages()
          .getFirst())).isEqualTo("# Review PR #456\nPriority high, assign to . All: 456 high");
    }
  }

  @Test
  void claudeZeroBasedConventionIsDetectedOrDeclared() {
    write(root, ".claude/commands/zero.md", "Migrate $0 from $ARGUMENTS[1] to $2.\n");
    write(root, ".claude/commands/declared.md", "---\nargument-base: 0\n---\nFirst $1 second $2\n");
    try (Library library = load(root)) {
      assertThat(prompt(library, "zero").prompt().arguments()).extracting(PromptArgument::name)
          .containsExactly("arg1", "arg2", "arg3");
      assertThat(text(render(library, "zero", Map.of("arg1", "Search", "arg2", "React", "arg3", "Vue"))
          .messages().getFirst())).isEqualTo("Migrate Search from React to Vue.");
      assertThat(text(render(library, "declared", Map.of("arg2", "b", "arg3", "c")).messages().getFirst()))
          .isEqualTo("First b second c");
    }
  }

  @Test
  void claudeShellSnippetsAndFileReferencesStayTextAndAreFlagged() {
    write(root, ".claude/commands/commit.md", """
        ---
        description: Commit
        ---
        Status: !`git status`
        See @src/utils/helpers.js and mail me@example.com
        """);
    try (Library library = load(root)) {
      assertThat(text(render(library, "commit", Map.of()).messages().getFirst()))
          .isEqualTo("Status: !`git status`\nSee @src/utils/helpers.js and mail me@example.com");
      Path file = root.resolve(".claude/commands/commit.md");
      assertThat(formatted(library)).containsExactly(
          file + ":4: warning: shell command !`git status` is kept as text; promptd never runs commands",
          file + ":5: warning: file reference @src/utils/helpers.js is kept as text; promptd never reads"
              + " referenced files");
    }
  }

  @Test
  void vsCodePromptFileInputsBecomeRequiredArguments() {
    write(root, ".github/prompts/react-form.prompt.md", """
        ---
        mode: agent
        description: Generate a React form
        tools: [codebase]
        ---
        Create a form named ${input:formName:MyForm} with fields ${input:fields}.
        Again: ${input:formName}. Selection: ${selection}. See #file:src/App.tsx
        """);
    write(root, ".github/workflows/ci.prompt.md", "not a prompt: wrong folder");
    try (Library library = load(root)) {
      assertThat(library.catalog().all()).extracting(PromptDefinition::name).containsExactly("react-form");
      Prompt prompt = prompt(library, "react-form").prompt();
      assertThat(prompt.arguments()).containsExactly(
          new PromptArgument("formName", null, "MyForm", true), new PromptArgument("fields", null, null, true));
      assertThat(text(render(library, "react-form", Map.of("formName", "Signup", "fields", "${input:formName}"))
          .messages().getFirst())).isEqualTo("Create a form named Signup with fields ${input:formName}.\n"
              + "Again: Signup. Selection: ${selection}. See #file:src/App.tsx");
      Path file = root.resolve(".github/prompts/react-form.prompt.md");
      assertThat(formatted(library)).containsExactly(
          file + ":7: warning: editor variable ${selection} is kept as text; it has no value outside VS Code",
          file + ":7: warning: file reference #file:src/App.tsx is kept as text; promptd never reads referenced files");
    }
  }

  @Test
  void claudeCommandNamesFollowTheirFolders() {
    write(root, ".claude/commands/frontend/Component.md", "Make a component");
    write(root, ".claude/commands/deploy.prompt.md", "Deploy");
    write(root, ".claude/settings/ignored.md", "not a command");
    try (Library library = load(root)) {
      assertThat(library.catalog().all()).extracting(PromptDefinition::name)
          .containsExactly("deploy", "frontend-component");
    }
  }

  @Test
  void rootsMayBeTheFormatFoldersThemselves() {
    write(root, ".claude/commands/a.md", "Do A");
    write(root, ".github/prompts/b.prompt.md", "Do B");
    try (Library claude = load(root.resolve(".claude/commands"));
        Library vscode = load(root.resolve(".github/prompts"))) {
      assertThat(text(render(claude, "a", Map.of()).messages().getFirst())).isEqualTo("Do A");
      assertThat(text(render(vscode, "b", Map.of()).messages().getFirst())).isEqualTo("Do B");
      assertThat(prompt(vscode, "b").prompt().description()).isEqualTo("Do B");
    }
  }
}
