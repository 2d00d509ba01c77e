package io.promptd.mcp.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MessageCodecTest {
  @Test
  void decodesRequestsNotificationsAndResponses() {
    assertThat(MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}"))
        .isEqualTo(new Incoming.Single(new Request(RequestId.of("a"), "ping", JsonObject.EMPTY)));
    assertThat(
            MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"))
        .isEqualTo(new Incoming.Single(new Notification("notifications/initialized", null)));
    assertThat(MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"))
        .isEqualTo(new Incoming.Single(new ResultResponse(RequestId.of(3), JsonObject.EMPTY)));
  }

  @Test
  void neverAnswersAResponseEvenWhenItsIdIsNull() {
    Incoming in = MessageCodec.decode(
        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"client could not parse\"}}");
    assertThat(in)
        .isInstanceOfSatisfying(
            Incoming.Invalid.class, i -> assertThat(i.answerable()).isFalse());
    Incoming result = MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"result\":{}}");
    assertThat(result)
        .isInstanceOfSatisfying(
            Incoming.Invalid.class, i -> assertThat(i.answerable()).isFalse());
  }

  @Test
  void neverAnswersAnInvalidNotification() {
    assertThat(
            MessageCodec.decode("{\"jsonrpc\":\"1.0\",\"method\":\"notifications/initialized\"}"))
        .isInstanceOfSatisfying(
            Incoming.Invalid.class, i -> assertThat(i.answerable()).isFalse());
    assertThat(MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":[]}"))
        .isInstanceOfSatisfying(
            Incoming.Invalid.class, i -> assertThat(i.answerable()).isFalse());
  }

  @Test
  void integerIdsWrittenDifferentlyAreOneId() {
    Request a = (Request) ((Incoming.Single)
            MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":7.0,\"method\":\"ping\"}"))
        .message();
    Request b = (Request) ((Incoming.Single)
            MessageCodec.decode("{\"jsonrpc\":\"2.0\",\"id\":7e0,\"method\":\"ping\"}"))
        .message();
    assertThat(a.id())
        .isEqualTo(RequestId.of(7))
        .isEqualTo(b.id())
        .hasSameHashCodeAs(RequestId.of(7));
    assertThat(a.id()).hasToString("7");
  }

  @Test
  void encodesAnErrorWithANullIdAndData() {
    ErrorResponse e =
        new ErrorResponse(null, ErrorCodes.PARSE_ERROR, "Parse error: x", JsonObject.EMPTY);
    assertThat(MessageCodec.encode(e))
        .isEqualTo(
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error: x\",\"data\":{}}}");
  }

  @Test
  void decodesTheBytesOfALine() {
    byte[] line =
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8);
    assertThat(MessageCodec.decode(line, 0, line.length - 1)).isInstanceOf(Incoming.Single.class);
    assertThat(new String(
            MessageCodec.encodeLine(new ResultResponse(RequestId.of(7), JsonObject.EMPTY)),
            StandardCharsets.UTF_8))
        .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n");
  }
}
