package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A library with Chinese and Japanese prompt and argument names, as a user checks, lists and
 * renders it with the command line, and as a client reads its listing from {@code serve}: the names
 * pass {@code check}, and reach the client as UTF-8.
 */
class UnicodeNamesCliTest {
  @TempDir
  Path dir;

  @Test
  void aLibraryNamedInChineseAndJapanesePassesCheckAndIsServed() throws Exception {
    // Arguments and file names in Japanese need a UTF-8 locale (sun.jnu.encoding) in the JVMs.
    assumeTrue("UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding")));
    Files.writeString(dir.resolve("summary.prompt.md"), """
        ---
        name: 要約
        description: 文章を要約します
        arguments:
          - name: 文章
            required: true
        ---
        次の文章を要約してください:{{文章}}
        """);
    Files.writeString(dir.resolve("总结.prompt.md"), """
        ---
        description: 总结一段文字
        arguments: [内容]
        ---
        请总结:{{内容}}
        """);

    CliProcessTest.Result check = CliProcessTest.run(List.of("check", dir.toString()), "");
    assertThat(check.status()).as(check.out() + check.err()).isZero();
    assertThat(check.out()).contains("0 error(s)");

    List<String> serve = new ArrayList<>(CliProcessTest.java());
    serve.addAll(List.of("serve", "--no-watch", dir.toString()));
    String server = CliProcessTest.shell(serve);
    CliProcessTest.Result list = CliProcessTest.run(List.of("list", "--stdio", server), "");
    assertThat(list.status()).as(list.err()).isZero();
    assertThat(list.out()).contains("要約", "文章*", "总结", "内容");
    CliProcessTest.Result get =
        CliProcessTest.run(List.of("get", "要約", "文章=会議の記録", "--stdio", server), "");
    assertThat(get.status()).as(get.err()).isZero();
    assertThat(get.out()).contains("次の文章を要約してください:会議の記録");

    String request = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{"
        + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}\n";
    CliProcessTest.Result raw =
        CliProcessTest.run(List.of("serve", "--no-watch", dir.toString()), request);
    // The bytes on the wire are UTF-8, not \\u escapes.
    assertThat(raw.out()).contains("\"name\":\"要約\"", "\"name\":\"总结\"").doesNotContain("\\u");
  }
}
