package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-client lane, a Spring AI application: Claude Code 2.1.332 in tmux with
 * {@code examples/java/spring-boot} (built and run as docs/java.md's "Spring Boot with Spring AI"
 * says) as its stdio MCP server. The example's {@code @McpPrompt} bean {@code code-review}, served
 * through promptd-java-sdk, is a slash command. Claude Code checks a listed required argument
 * itself and sends no {@code prompts/get} without it ("Missing required argument: code"); the
 * example sets {@code promptd.prompts.form-first=true}, so the arguments are listed as not required
 * and the bare command reaches the server: promptd's form for the missing {@code code} comes
 * through the SDK's {@code elicitation/create}, is filled in, and the bean's rendered text is what
 * reaches the model stand-in. A value outside the bean's enum is asked for again in a form.
 * Screens: {@code target/client-screens/claude-code-spring-ai-bean-form.txt} and {@code -form2.txt}
 * (the forms as accepted).
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class SpringAiClaudeCodeTest {
  private static final Duration START = Duration.ofSeconds(120);
  private static final Duration TURN = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  private Path library;
  private ModelStandIn model;
  private final List<AutoCloseable> open = new ArrayList<>();

  @BeforeAll
  static void installed() {
    ClaudeCode.require();
    JavaExamplesTest.requireArtifacts();
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    if (model != null) {
      model.close();
    }
    if (library != null) {
      TerminalClients.endProcessesIn(library.toString());
    }
  }

  @Test
  void aSpringAiPromptBeanIsACommandAndGetsPromptdsForm() throws Exception {
    List<List<String>> commands = JavaExamplesTest.commands("### Spring Boot with Spring AI");
    JavaExamplesTest.build(commands.get(0), "spring-boot", dir);
    library = PromptdServer.copy(Peers.ROOT.resolve("examples/prompts"), dir.resolve("library"));
    List<String> served = new ArrayList<>(commands.get(1));
    assertThat(served.getLast()).isEqualTo("--promptd.prompts.dirs=examples/prompts");
    served.set(served.size() - 1, "--promptd.prompts.dirs=" + library);
    JavaExamplesTest.jar(served);
    model = ModelStandIn.start(ClaudeCode::anthropic);

    String cell = "spring-ai-bean";
    Files.createDirectories(ClaudeCode.SCREENS);
    Path wire =
        ClaudeCode.SCREENS.resolve("claude-code-" + cell + ".stdio.jsonl").toAbsolutePath();
    Files.deleteIfExists(wire);
    String log = PromptdServer.shell(List.of(wire.toString()));
    Path errors =
        ClaudeCode.SCREENS.resolve("claude-code-" + cell + ".stderr.txt").toAbsolutePath();
    String command = "tee -a " + log + " | " + PromptdServer.shell(served) + " 2>"
        + PromptdServer.shell(List.of(errors.toString())) + " | tee -a " + log;
    ClaudeCode claude = ClaudeCode.start(
        cell,
        dir.resolve("claude"),
        ClaudeCode.stdioServer(List.of("/bin/sh", "-c", command)),
        model);
    open.add(claude);

    claude.awaitCommand("code-review", START);

    // promptd.prompts.form-first=true: the arguments are listed as not required, so Claude Code
    // sends the bare command, and promptd asks for the missing code in its form.
    claude.send("/mcp__promptd__code-review");
    String form = claude.awaitForm(TURN);
    assertThat(form)
        .contains("The prompt 'code-review' needs more from you: code is required.")
        .contains("* code: Type something…")
        .contains("language: not set")
        .contains("focus: not set");
    claude.fill("code", "total = total + 1");
    claude.choose("language", "JAVA");
    claude.accept();
    claude.awaitReplyAcceptingForms(TURN);
    assertThat(model.await("Review this java code", TURN).body()).contains("total = total + 1");
    assertThat(Files.readString(wire, UTF_8))
        .contains("\"required\":false")
        .doesNotContain("\"required\":true")
        .contains("\"method\":\"elicitation/create\"");

    // A value the bean's enum does not have reaches the server: promptd asks for it in its form,
    // sent through the SDK's elicitation/create.
    claude.send("/mcp__promptd__code-review x=x+1 RUBY");
    String invalid = claude.awaitForm(TURN);
    assertThat(invalid)
        .contains("The prompt 'code-review' needs more from you: language must be one of JAVA,"
            + " KOTLIN, PYTHON, TYPESCRIPT.")
        .contains("✔ code: x=x+1")
        .contains("language: not set");
    claude.choose("language", "KOTLIN");
    claude.accept();
    claude.awaitReplyAcceptingForms(TURN);
    assertThat(model.await("Review this kotlin code", TURN).body()).contains("x=x+1");
    Matrix.record(
        "Claude Code " + ClaudeCode.VERSION + " (terminal, tmux) → Spring AI example",
        "stdio",
        "legacy 2025-11-25",
        "the @McpPrompt bean code-review is /mcp__promptd__code-review (form-first: listed as not"
            + " required); bare, promptd's form for the required code comes through the SDK's"
            + " elicitation/create, code typed, JAVA chosen, accepted, the bean's text reaches the"
            + " model; language RUBY: a form again, KOTLIN chosen, rendered");
  }
}
