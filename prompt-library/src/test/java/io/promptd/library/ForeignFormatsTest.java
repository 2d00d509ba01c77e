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
  @TempDir
  Path root;

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
      assertThat(text(render(library, "fix-issue", Map.of("arguments", "#123 high $1 {{x}}"))
              .messages()
              .getFirst()))
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
      assertThat(prompt.arguments())
          .extracting(PromptArgument::name)
          .containsExactly("pr-number", "priority", "assignee");
      assertThat(text(render(library, "review-pr", Map.of("pr-number", "456", "priority", "high"))
              .messages()
              .getFirst()))
          .isEqualTo("# Review PR #456\nPriority high, assign to . All: 456 high");
    }
  }

  @Test
  void claudeZeroBasedConventionIsDetectedOrDeclared() {
    write(root, ".claude/commands/zero.md", "Migrate $0 from $ARGUMENTS[1] to $2.\n");
    write(root, ".claude/commands/declared.md", "---\nargument-base: 0\n---\nFirst $1 second $2\n");
    try (Library library = load(root)) {
      assertThat(prompt(library, "zero").prompt().arguments())
          .extracting(PromptArgument::name)
          .containsExactly("arg1", "arg2", "arg3");
      assertThat(
              text(render(library, "zero", Map.of("arg1", "Search", "arg2", "React", "arg3", "Vue"))
                  .messages()
                  .getFirst()))
          .isEqualTo("Migrate Search from React to Vue.");
      assertThat(text(render(library, "declared", Map.of("arg2", "b", "arg3", "c"))
              .messages()
              .getFirst()))
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
      assertThat(formatted(library))
          .containsExactly(
              file
                  + ":4: warning: shell command !`git status` is kept as text; promptd never runs commands",
              file
                  + ":5: warning: file reference @src/utils/helpers.js is kept as text; promptd never reads"
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
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("react-form");
      Prompt prompt = prompt(library, "react-form").prompt();
      assertThat(prompt.arguments())
          .containsExactly(
              new PromptArgument("formName", null, "MyForm", true),
              new PromptArgument("fields", null, null, true));
      assertThat(text(render(
                  library,
                  "react-form",
                  Map.of("formName", "Signup", "fields", "${input:formName}"))
              .messages()
              .getFirst()))
          .isEqualTo("Create a form named Signup with fields ${input:formName}.\n"
              + "Again: Signup. Selection: ${selection}. See #file:src/App.tsx");
      Path file = root.resolve(".github/prompts/react-form.prompt.md");
      assertThat(formatted(library))
          .containsExactly(
              file
                  + ":7: warning: editor variable ${selection} is kept as text; it has no value outside VS Code",
              file
                  + ":7: warning: file reference #file:src/App.tsx is kept as text; promptd never reads referenced files");
    }
  }

  @Test
  void claudeCommandNamesFollowTheirFolders() {
    write(root, ".claude/commands/frontend/Component.md", "Make a component");
    write(root, ".claude/commands/deploy.prompt.md", "Deploy");
    write(root, ".claude/settings/ignored.md", "not a command");
    try (Library library = load(root)) {
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
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
  // Codex, Cursor and Gemini CLI: fixtures written here from each format's public documentation.

  @Test
  void codexPromptsTakePositionalNamedAndAllArguments() {
    write(root, ".codex/prompts/draftpr.md", """
        ---
        description: Prepare a branch, commit and pull request
        argument-hint: [FILES] [PR_TITLE]
        ---
        Create a branch named dev/<feature>, stage $1 and open a PR titled "$2".
        Reviewer: $REVIEWER. Cost: $$5. All: $ARGUMENTS
        """);
    try (Library library = load(root)) {
      Prompt prompt = prompt(library, "draftpr").prompt();
      assertThat(prompt.description()).isEqualTo("Prepare a branch, commit and pull request");
      assertThat(prompt.arguments())
          .extracting(a -> a.name() + ":" + a.required())
          .containsExactly("files:false", "pr_title:false", "REVIEWER:true");
      assertThat(text(render(
                  library,
                  "draftpr",
                  Map.of("files", "a.java", "pr_title", "Fix it", "REVIEWER", "ada"))
              .messages()
              .getFirst()))
          .isEqualTo("Create a branch named dev/<feature>, stage a.java and open a PR titled"
              + " \"Fix it\".\nReviewer: ada. Cost: $5. All: a.java Fix it");
      assertThat(library.diagnostics()).isEmpty();
    }
  }

  @Test
  void cursorCommandsAppendWhatFollowsTheCommand() {
    write(root, ".cursor/commands/code-review.md", """
        # Code review checklist

        Review the changes for correctness, security and tests. See @docs/style.md
        """);
    try (Library library = load(root)) {
      Prompt prompt = prompt(library, "code-review").prompt();
      assertThat(prompt.description()).isEqualTo("Code review checklist");
      assertThat(prompt.arguments()).extracting(PromptArgument::name).containsExactly("arguments");
      assertThat(text(render(library, "code-review", Map.of()).messages().getFirst()))
          .endsWith("See @docs/style.md");
      assertThat(text(render(library, "code-review", Map.of("arguments", "focus on auth"))
              .messages()
              .getFirst()))
          .endsWith("See @docs/style.md\n\nfocus on auth");
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .singleElement()
          .asString()
          .contains("code-review.md:3: warning: file reference @docs/style.md is kept as text");
    }
  }

  @Test
  void geminiCommandsReadTomlAndArgs() {
    write(root, ".gemini/commands/git/commit.toml", """
        # Invoked as /git:commit
        description = "Generates a Git commit message from staged changes."
        prompt = \"""
        Please generate a Conventional Commit message for: {{args}}
        Changes: !{git diff --staged}
        Quote: \\"ok\\" \\u00e9 \\
            joined\"""
        """);
    write(root, ".gemini/commands/refactor.toml", """
        description = 'Refactors code'
        prompt = '''
        Refactor this: @{src/main.py}'''
        model = "fast"
        [extra]
        key = "ignored"
        """);
    try (Library library = load(root)) {
      Prompt commit = prompt(library, "git-commit").prompt();
      assertThat(commit.description())
          .isEqualTo("Generates a Git commit message from staged changes.");
      assertThat(commit.arguments()).extracting(PromptArgument::name).containsExactly("args");
      assertThat(text(render(library, "git-commit", Map.of("args", "the login fix"))
              .messages()
              .getFirst()))
          .isEqualTo("Please generate a Conventional Commit message for: the login fix\n"
              + "Changes: !{git diff --staged}\nQuote: \"ok\" \u00e9 joined");
      assertThat(text(render(library, "refactor", Map.of("args", "keep it short"))
              .messages()
              .getFirst()))
          .isEqualTo("Refactor this: @{src/main.py}\n\nkeep it short");
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .anySatisfy(d -> assertThat(d)
              .contains(
                  "commit.toml:5: warning: shell command !{git diff --staged} is kept as text"))
          .anySatisfy(d ->
              assertThat(d).contains("refactor.toml:3: warning: file injection @{src/main.py}"))
          .anySatisfy(d ->
              assertThat(d).contains("refactor.toml:4: warning: key 'model' is not a Gemini CLI"))
          .anySatisfy(
              d -> assertThat(d).contains("refactor.toml:5: warning: table [extra] is ignored"));
    }
  }

  @Test
  void brokenGeminiCommandsAreFileLineErrors() {
    write(root, ".gemini/commands/nope.toml", "description = \"no prompt\"\n");
    write(
        root, ".gemini/commands/open.toml", "description = \"x\"\nprompt = \"\"\"\nnever closed\n");
    write(root, ".gemini/commands/escape.toml", "prompt = \"bad \\q escape\"\n");
    write(root, ".gemini/commands/twice.toml", "prompt = \"a\"\nprompt = \"b\"\n");
    try (Library library = load(root)) {
      assertThat(library.catalog().size()).isZero();
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .anySatisfy(d ->
              assertThat(d).contains("nope.toml:1: error: a Gemini CLI command needs 'prompt'"))
          .anySatisfy(
              d -> assertThat(d).contains("open.toml:2: error: a \"\"\" string does not close"))
          .anySatisfy(d -> assertThat(d).contains("escape.toml:1: error: unknown escape \\q"))
          .anySatisfy(
              d -> assertThat(d).contains("twice.toml:2: error: key 'prompt' is defined twice"));
    }
  }

  @Test
  void theFormatsFoldersAreScannedAndOtherHiddenFoldersAreNot() {
    write(root, ".cursor/commands/a.md", "A\n");
    write(root, ".cursor/rules/r.md", "not a command\n");
    write(root, ".codex/prompts/b.md", "B\n");
    write(root, ".codex/other/c.md", "not a prompt\n");
    write(root, ".gemini/commands/deep/er/d.toml", "prompt = \"D\"\n");
    write(root, ".gemini/settings/e.toml", "prompt = \"E\"\n");
    write(root, ".hidden/f.prompt.md", "F\n");
    try (Library library = load(root)) {
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactlyInAnyOrder("a", "b", "deep-er-d");
    }
  }

  @Test
  void dotpromptFilesTranslateToMustacheWithRoles() {
    write(root, "greet.prompt", """
        ---
        model: googleai/gemini-2.5-flash
        config:
          temperature: 0.9
        description: Greets someone in a style
        input:
          schema:
            name: string, the person to greet
            style?(enum, how to greet): [formal, casual]
            times?: integer
          default:
            style: casual
        ---
        {{role "system"}}
        You greet people. {{! a comment }}
        {{role "user"}}
        Greet {{name}}{{#if times}} {{times}} times{{else}} once{{/if}}, {{style}}.
        {{#unless style}}No style.{{/unless}}
        """);
    write(root, "_shared.prompt", "a Dotprompt partial: not a prompt\n");
    try (Library library = load(root)) {
      Prompt prompt = prompt(library, "greet").prompt();
      assertThat(prompt.description()).isEqualTo("Greets someone in a style");
      assertThat(prompt.arguments())
          .extracting(a -> a.name() + ":" + a.required())
          .containsExactly("name:true", "style:false", "times:false");
      var messages =
          render(library, "greet", Map.of("name", "Ada", "times", "2")).messages();
      assertThat(messages).hasSize(1);
      assertThat(text(messages.getFirst()))
          .isEqualTo("You greet people.\n\nGreet Ada 2 times, casual.");
      assertThat(text(render(library, "greet", Map.of("name", "Ada", "style", "formal"))
              .messages()
              .getFirst()))
          .endsWith("Greet Ada once, formal.");
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .containsExactly("greet");
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .allSatisfy(d -> assertThat(d).contains("warning"));
    }
  }

  @Test
  void dotpromptHelpersPromptdCannotRenderAreFileLineErrors() {
    write(root, "media.prompt", """
        ---
        input:
          schema:
            photo: string
        ---
        Describe this:
        {{media url=photo}}
        """);
    write(root, "nested.prompt", """
        ---
        input:
          schema:
            person(object):
              name: string
        ---
        Hi {{person.name}}
        """);
    try (Library library = load(root)) {
      assertThat(library.catalog().size()).isZero();
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .anySatisfy(d -> assertThat(d)
              .contains("media.prompt:7: error: {{media url=photo}} is a Handlebars helper"))
          .anySatisfy(
              d -> assertThat(d).contains("nested.prompt:5: error: input 'person' is an object"));
    }
  }

  @Test
  void promptyFilesTranslateInputsRolesAndJinja() {
    write(root, "support.prompty", """
        ---
        name: Support
        description: Answers a customer question
        authors: [someone]
        model:
          api: chat
        inputs:
          customer:
            type: string
            description: The customer's first name
          question:
            type: string
          vip:
            type: boolean
            default: false
        ---
        system:
        You help {{ customer }}.{# internal note #}
        {% if vip %}Be extra careful.{% else %}Be concise.{% endif %}

        user:
        {{question}}
        """);
    try (Library library = load(root)) {
      Prompt prompt = prompt(library, "support").prompt();
      assertThat(prompt.description()).isEqualTo("Answers a customer question");
      assertThat(prompt.arguments())
          .extracting(a -> a.name() + ":" + a.required())
          .containsExactly("customer:true", "question:true", "vip:false");
      var messages = render(
              library, "support", Map.of("customer", "Ada", "question", "Where is my order?"))
          .messages();
      assertThat(text(messages.getFirst()))
          .contains("You help Ada.")
          .contains("Be concise.")
          .endsWith("Where is my order?");
    }
    write(root, "loop.prompty", """
        ---
        sample:
          items: [a, b]
        ---
        {% for item in items %}{{ item | upper }}{% endfor %}
        """);
    try (Library library = load(root)) {
      assertThat(library.diagnostics())
          .extracting(Diagnostic::format)
          .anySatisfy(
              d -> assertThat(d)
                  .contains(
                      "loop.prompty:5: error: {% for item in items %} is a Jinja statement promptd cannot render"));
    }
  }
}
