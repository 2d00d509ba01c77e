package io.promptd.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.client.FormHandler;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The terminal form {@code promptd get} shows when a server asks for arguments: typed fields,
 * choices, defaults.
 */
class TerminalFormTest {
  private static final JsonObject SCHEMA = (JsonObject) JsonCodec.parse("""
      {"type":"object","properties":{
        "text":{"type":"string","title":"Text","description":"What to translate"},
        "lang":{"type":"string","enum":["French","German"],"default":"French"},
        "count":{"type":"integer"},
        "notes":{"type":"boolean","default":true},
        "extra":{"type":"string"}},
       "required":["text","count"]}""");

  @Test
  void asksEachFieldAgainUntilItFitsAndKeepsDefaults() throws Exception {
    // text: empty (required: asked again), then "hello"; lang: "3" (no such choice), then "2";
    // count: "2.5" (not whole), then "4"; notes: Enter keeps the default; extra: Enter leaves it
    // out.
    Result r = fill("\nhello\n3\n2\n2.5\n4\n\n\n");
    assertThat(r.answer().action()).isEqualTo("accept");
    assertThat(JsonCodec.write(r.answer().content()))
        .isEqualTo("{\"text\":\"hello\",\"lang\":\"German\",\"count\":4,\"notes\":true}");
    assertThat(r.shown())
        .contains(
            "The prompt needs more",
            "  What to translate",
            "Text *: ",
            "  a value is required",
            "  1) French",
            "  2) German",
            "lang [French]: ",
            "  type one of the numbers above, or the value",
            "count *: ",
            "  type a whole number",
            "notes [true]: ");
  }

  @Test
  void choicesMayBeTypedAndBooleansAnsweredInWords() throws Exception {
    Result r = fill("hi\ngerman\n1\nno\nmore\n");
    assertThat(JsonCodec.write(r.answer().content()))
        .isEqualTo(
            "{\"text\":\"hi\",\"lang\":\"German\",\"count\":1,\"notes\":false,\"extra\":\"more\"}");
  }

  @Test
  void titledChoicesShowTheirTitlesAndTakeTheTitleTheValueOrTheNumber() throws Exception {
    JsonObject schema =
        (JsonObject) JsonCodec.parse("{\"type\":\"object\",\"properties\":{\"lang\":{\"type\":"
            + "\"string\",\"oneOf\":[{\"const\":\"fr\",\"title\":\"French\"},{\"const\":\"de\",\"title\":\"German\"}]}},"
            + "\"required\":[\"lang\"]}");
    for (String typed : List.of("german\n", "de\n", "2\n")) {
      ByteArrayOutputStream shown = new ByteArrayOutputStream();
      FormHandler.Answer a = new TerminalForm(
              new BufferedReader(new StringReader(typed)), new PrintStream(shown, true, UTF_8))
          .answer("Pick one.", schema);
      assertThat(JsonCodec.write(a.content())).as(typed).isEqualTo("{\"lang\":\"de\"}");
      assertThat(shown.toString(UTF_8)).contains("  1) French", "  2) German");
    }
  }

  @Test
  void endOfInputCancelsTheForm() throws Exception {
    assertThat(fill("hello\n").answer().action()).isEqualTo("cancel");
  }

  private record Result(FormHandler.Answer answer, String shown) {}

  private static Result fill(String typed) throws Exception {
    ByteArrayOutputStream shown = new ByteArrayOutputStream();
    FormHandler.Answer answer = new TerminalForm(
            new BufferedReader(new StringReader(typed)), new PrintStream(shown, true, UTF_8))
        .answer("The prompt needs more from you.", SCHEMA);
    return new Result(answer, shown.toString(UTF_8));
  }
}
