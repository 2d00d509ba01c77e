package io.promptd.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;

/**
 * promptd's JSON reader and the JSON-RPC message decoder on any bytes: a value or a clear error,
 * and round trips.
 */
class JsonFuzzTest {
  /**
   * Any bytes: a value, which writes and reads back to itself, or a JsonException with a safe
   * message.
   */
  @FuzzTest(maxDuration = "10m")
  void jsonReader(byte[] input) {
    Json value;
    try {
      value = JsonCodec.parse(input, 0, input.length);
    } catch (JsonException e) {
      Safe.message(e.getMessage());
      return;
    }
    String written = JsonCodec.write(value);
    assertThat(JsonCodec.parse(written)).isEqualTo(value);
    assertThat(JsonCodec.write(JsonCodec.parse(written))).isEqualTo(written);
  }

  /**
   * Any bytes as one message: decoded into a message, a batch, or an invalid input with a safe
   * error.
   */
  @FuzzTest(maxDuration = "10m")
  void messageDecoder(byte[] input) {
    Incoming in = MessageCodec.decode(input, 0, input.length);
    if (in instanceof Incoming.Invalid invalid) {
      Safe.message(invalid.error().message());
    }
  }
}
