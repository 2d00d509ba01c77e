package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class TerminalInputTest {
  @Test
  void theStartSaysWhatToRunInsteadWithTheServedFolders() {
    String hint = TerminalInput.hint(List.of(Path.of("examples/prompts"), Path.of("my prompts")));

    assertThat(hint)
        .startsWith("promptd: standard input is a terminal. MCP clients start promptd serve")
        .contains("there is nothing to type here (Ctrl-D ends it)")
        .contains(" clients examples/prompts 'my prompts'   # add them to an MCP client\n")
        .contains(" serve examples/prompts '\\''my prompts'\\'''   # list them as a client sees")
        .contains(" serve --http 3000 --catalog examples/prompts 'my prompts'   # browse them");
  }

  @Test
  void eachTypedLineThatIsNotJsonGetsTheShortHintAndEveryBytePassesThrough() throws Exception {
    String typed =
        "hello\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\n  [1]\r\n  help me\nx";
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    InputStream in = TerminalInput.watch(
        new ByteArrayInputStream(typed.getBytes(UTF_8)),
        new PrintStream(err, true, UTF_8),
        List.of());
    ByteArrayOutputStream passed = new ByteArrayOutputStream();
    byte[] buffer = new byte[7]; // lines cross reads
    passed.write(in.read()); // and single bytes are seen too
    for (int n = in.read(buffer, 0, buffer.length); n > 0; n = in.read(buffer, 0, buffer.length)) {
      passed.write(buffer, 0, n);
    }

    assertThat(passed.toString(UTF_8)).isEqualTo(typed);
    String said = err.toString(UTF_8);
    assertThat(said).startsWith(TerminalInput.hint(List.of())).contains(" clients DIR   #");
    assertThat(said.substring(TerminalInput.hint(List.of()).length()))
        .isEqualTo(
            ("promptd: that line is not JSON-RPC: MCP clients start promptd serve themselves;"
                    + " Ctrl-D ends it\n")
                .repeat(3)); // hello, help me, x
  }
}
