package io.promptd.library;

import static io.promptd.library.Files2.formatted;
import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.render;
import static io.promptd.library.Files2.text;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.PromptArgument;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.PromptDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prompt, argument and skill names in Chinese and Japanese: they pass the linter, are served and
 * rendered by name, survive the wire as UTF-8, and match whichever Unicode normalisation (NFC or
 * NFD, as macOS writes file names) the file system or the client uses.
 */
class UnicodeNamesTest {
  /** ガイド ("guide") in NFD: each voiced kana is its base kana and a combining mark. */
  private static final String GUIDE_NFD = Normalizer.normalize("ガイド", Normalizer.Form.NFD);

  @TempDir
  Path root;

  @BeforeEach
  void fileNamesAreUtf8() {
    // Non-ASCII file names need a UTF-8 file-name encoding (a UTF-8 locale) in this JVM.
    assumeTrue("UTF-8".equalsIgnoreCase(System.getProperty("sun.jnu.encoding")));
  }

  @Test
  void chineseAndJapaneseNamesPassTheLinterAndAreServed() throws Exception {
    write(root, "summary.prompt.md", """
        ---
        name: 要約
        description: 文章を要約します
        arguments:
          - name: 文章
            required: true
          - 長さ
        ---
        次の文章を{{長さ}}要約してください:{{文章}}
        """);
    write(root, "翻訳.prompt.md", """
        ---
        description: 翻訳します
        arguments: [原文, 言語]
        ---
        {{#言語}}{{言語}}に{{/言語}}翻訳してください:{{原文}}
        """);
    write(root, "zh/总结.prompt.md", """
        ---
        description: 总结一段文字
        arguments:
          - name: 内容
            required: true
        ---
        请总结:{{内容}}
        """);
    write(root, "cn.prompt.md", "---\nname: 写作.助手:v2\ndescription: d\n---\n你好\n");
    write(root, "議事録/SKILL.md", "---\nname: 議事録\ndescription: 会議の議事録を作ります\n---\n手順\n");

    assertThat(Linter.check(List.of(root))).isEmpty();
    try (Library library = load(root)) {
      assertThat(formatted(library)).isEmpty();
      assertThat(library.catalog().all())
          .extracting(PromptDefinition::name)
          .contains("要約", "翻訳", "zh-总结", "写作.助手:v2", "議事録");
      assertThat(Files2.prompt(library, "要約").prompt().arguments())
          .extracting(PromptArgument::name, PromptArgument::required)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("文章", true),
              org.assertj.core.groups.Tuple.tuple("長さ", false));
      assertThat(text(
              render(library, "要約", Map.of("文章", "本文", "長さ", "短く")).messages().getFirst()))
          .isEqualTo("次の文章を短く要約してください:本文");
      assertThat(text(render(library, "翻訳", Map.of("原文", "こんにちは", "言語", "英語"))
              .messages()
              .getFirst()))
          .isEqualTo("英語に翻訳してください:こんにちは");
      assertThat(text(render(library, "zh-总结", Map.of("内容", "文字")).messages().getFirst()))
          .isEqualTo("请总结:文字");

      try (McpHarness mcp = new McpHarness(library.catalog())) {
        assertThat(mcp.call("prompts/list", "{}"))
            .contains("\"name\":\"要約\"", "\"name\":\"文章\"", "\"name\":\"翻訳\"")
            .doesNotContain("\\u8981");
        assertThat(mcp.call("prompts/get", "{\"name\":\"要約\",\"arguments\":{\"文章\":\"会議の記録\"}}"))
            .contains("次の文章を要約してください:会議の記録");
        assertThat(mcp.call(
                "completion/complete",
                "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"要約\"},"
                    + "\"argument\":{\"name\":\"文章\",\"value\":\"\"}}"))
            .contains("\"completion\"");
      }
    }
  }

  @Test
  void aFileNamedInNfdGivesAnNfcNameThatClientsReachInEitherForm() throws Exception {
    String keyword = Normalizer.normalize("キーワード", Normalizer.Form.NFD);
    write(root, GUIDE_NFD + ".prompt.md", """
        ---
        description: d
        arguments:
          - name: %s
            required: true
        ---
        探す:{{キーワード}}
        """.formatted(keyword));
    try (Library library = load(root)) {
      assertThat(formatted(library)).isEmpty();
      assertThat(library.catalog().all()).extracting(PromptDefinition::name).containsExactly("ガイド");
      assertThat(Files2.prompt(library, "ガイド").prompt().arguments())
          .extracting(PromptArgument::name)
          .containsExactly("キーワード");
      try (McpHarness mcp = new McpHarness(library.catalog())) {
        // A client on macOS may send both names in NFD.
        assertThat(mcp.call(
                "prompts/get",
                "{\"name\":\"" + GUIDE_NFD + "\",\"arguments\":{\"" + keyword + "\":\"猫\"}}"))
            .contains("探す:猫");
      }
    }
  }

  @Test
  void aTemplateTypedInNfdReadsItsArgumentsDeclaredInEitherForm() throws Exception {
    String nfd = Normalizer.normalize("キーワード", Normalizer.Form.NFD);
    // Declared in NFC, the tag in NFD; then both in NFD. The text between tags stays as written.
    write(
        root,
        "a.prompt.md",
        "---\nname: a\ndescription: d\narguments: [キーワード]\n---\n" + "ガ{{" + nfd + "}}\n");
    write(
        root,
        "b.prompt.md",
        "---\nname: b\ndescription: d\narguments: [" + nfd + "]\n---\n" + "{{#" + nfd + "}}[{{"
            + nfd + "}}]{{/" + nfd + "}}\n");
    assertThat(Linter.check(List.of(root))).isEmpty();
    try (Library library = load(root)) {
      assertThat(formatted(library)).isEmpty();
      assertThat(text(render(library, "a", Map.of("キーワード", "猫")).messages().getFirst()))
          .isEqualTo("ガ猫");
      assertThat(text(render(library, "b", Map.of("キーワード", "犬")).messages().getFirst()))
          .isEqualTo("[犬]");
    }
  }

  @Test
  void anAttachmentNamedInNfdOnDiskIsFoundFromAnNfcReference() throws Exception {
    String folder = Normalizer.normalize("資料", Normalizer.Form.NFD);
    String data = Normalizer.normalize("データ.md", Normalizer.Form.NFD);
    assertThat(data).isNotEqualTo("データ.md");
    write(root, folder + "/" + data, "# 表\n");
    write(root, "見る.prompt.md", "---\ndescription: d\n---\n見て:\n::: resource 資料/データ.md\n");
    try (Stream<Path> names = Files.list(root.resolve(folder))) {
      // The file system keeps the bytes as written: the NFC name is not on disk.
      assertThat(names.map(p -> p.getFileName().toString())).containsExactly(data);
    }

    assertThat(Linter.check(List.of(root))).isEmpty();
    try (Library library = load(root)) {
      assertThat(formatted(library)).isEmpty();
      var messages = render(library, "見る", Map.of()).messages();
      assertThat(messages).hasSize(2);
      EmbeddedResource resource = (EmbeddedResource) messages.get(1).content();
      assertThat(((TextResourceContents) resource.resource()).text()).isEqualTo("# 表\n");
    }
  }

  @Test
  void namesOutsideTheRulesSayWhichCharactersAreAllowed() throws Exception {
    write(root, "a.prompt.md", "---\nname: 要約!\ndescription: d\n---\nx\n");
    write(root, "b.prompt.md", "---\ndescription: d\narguments: [文 章]\n---\nx\n");
    write(root, "ОТЧЁТ/SKILL.md", "---\nname: ОТЧЁТ\ndescription: d\n---\nx\n");
    write(root, "会議_メモ/SKILL.md", "---\nname: 会議_メモ\ndescription: d\n---\nx\n");
    try (Library library = load(root)) {
      assertThat(formatted(library))
          .containsExactlyInAnyOrder(
              root.resolve("a.prompt.md") + ":2: error: name '要約!' must be 1-128 letters and"
                  + " digits of any script, '_', '-', '.' or ':', starting with a letter, digit"
                  + " or '_'",
              root.resolve("b.prompt.md") + ":3: error: argument name '文 章' must be 1-64"
                  + " letters and digits of any script, '_' or '-', starting with a letter, digit"
                  + " or '_' (it is used as a template variable)",
              root.resolve("ОТЧЁТ/SKILL.md") + ":2: error: skill name 'ОТЧЁТ' may hold only"
                  + " letters and digits of any script, lower-case where the script has case,"
                  + " and '-', e.g. 'отчёт'",
              root.resolve("会議_メモ/SKILL.md") + ":2: error: skill name '会議_メモ' may hold"
                  + " only letters and digits of any script, lower-case where the script has"
                  + " case, and '-', e.g. '会議-メモ'");
    }
  }
}
