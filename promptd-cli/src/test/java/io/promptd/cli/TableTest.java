package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableTest {
  private static final String DIGEST = "ab".repeat(32);

  private static String print(Table.Format format, Table... tables) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Table.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), format, List.of(tables));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static Table versions() {
    return new Table("versions", "PATH", "VERSION", "SHA256")
        .row("review.prompt.md", 12, DIGEST)
        .row("翻訳.prompt.md", 3, "-");
  }

  @Test
  void aTerminalGetsAlignedColumnsWithShortDigests() {
    assertThat(print(Table.Format.ALIGNED, versions()))
        .isEqualTo("PATH              VERSION  SHA256\n"
            + "review.prompt.md  12       abababababab\n"
            + "翻訳.prompt.md    3        -\n"); // 翻 and 訳 take two columns each
  }

  @Test
  void scriptsGetTabsAndTheWholeDigest() {
    assertThat(print(Table.Format.TSV, versions(), new Table("moves", "LABEL").row("prod")))
        .isEqualTo("PATH\tVERSION\tSHA256\n"
            + "review.prompt.md\t12\t" + DIGEST + "\n"
            + "翻訳.prompt.md\t3\t-\n"
            + "\n"
            + "LABEL\n"
            + "prod\n");
  }

  @Test
  void jsonKeysAreTheColumnsAndIntegersAreNumbers() {
    assertThat(print(Table.Format.JSON, versions()))
        .isEqualTo("[{\"path\":\"review.prompt.md\",\"version\":12,\"sha256\":\"" + DIGEST + "\"},"
            + "{\"path\":\"翻訳.prompt.md\",\"version\":3,\"sha256\":\"-\"}]\n");
    assertThat(print(Table.Format.JSON, versions(), new Table("moves", "LABEL")))
        .startsWith("{\"versions\":[{")
        .endsWith(",\"moves\":[]}\n");
  }

  @Test
  void theFlagsNameTheFormats() {
    assertThat(Table.Format.ofFlag("--table")).isEqualTo(Table.Format.ALIGNED);
    assertThat(Table.Format.ofFlag("--tsv")).isEqualTo(Table.Format.TSV);
    assertThat(Table.Format.ofFlag("--json")).isEqualTo(Table.Format.JSON);
    assertThat(Table.Format.ofFlag("--store")).isNull();
    assertThat(Table.Format.forOutput())
        .as("the tests' output is no terminal")
        .isEqualTo(Table.Format.TSV);
  }
}
