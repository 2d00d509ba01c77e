package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColumnsTest {
  @Test
  void wideScriptsTakeTwoColumnsAndCombiningMarksNone() {
    assertThat(Columns.width("review")).isEqualTo(6);
    assertThat(Columns.width("站会")).isEqualTo(4);
    assertThat(Columns.width("要約")).isEqualTo(4);
    assertThat(Columns.width("ほんやく")).isEqualTo(8);
    assertThat(Columns.width("요약")).isEqualTo(4);
    assertThat(Columns.width("ＡＢ")).isEqualTo(4); // fullwidth Latin
    assertThat(Columns.width("e\u0301")).isEqualTo(1); // e and a combining acute accent
    assertThat(Columns.width("𠀋")).isEqualTo(2); // outside the BMP
    assertThat(Columns.pad("站会", 6)).isEqualTo("站会  ");
  }

  @Test
  void promptdListLinesUpNamesWrittenInChineseAndJapanese() {
    List<Json> prompts = List.of(
        JsonCodec.parse("{\"name\":\"站会\",\"description\":\"把笔记整理成站会发言\","
            + "\"arguments\":[{\"name\":\"笔记\",\"required\":true},{\"name\":\"语气\"}]}"),
        JsonCodec.parse("{\"name\":\"review\",\"description\":\"Reviews code\","
            + "\"arguments\":[{\"name\":\"code\",\"required\":true}]}"));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Render.promptTable(prompts, new PrintStream(bytes, true, UTF_8));

    assertThat(bytes.toString(UTF_8))
        .isEqualTo("NAME    ARGUMENTS    DESCRIPTION\n"
            + "站会    笔记*, 语气  把笔记整理成站会发言\n"
            + "review  code*        Reviews code\n"
            + "2 prompt(s); * = required argument\n");
  }
}
