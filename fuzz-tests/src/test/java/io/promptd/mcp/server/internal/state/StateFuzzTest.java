package io.promptd.mcp.server.internal.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.promptd.fuzz.Safe;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.jsonrpc.McpException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Client-held state promptd decodes: list cursors, the {@code requestState} of an
 * {@code InputRequiredResult} (forged, and also correctly signed around any payload, to reach the
 * decoding behind the MAC) and the user's answers to a form ({@code inputResponses}). Each is a
 * value, or a -32602 with a safe message.
 */
class StateFuzzTest {
  private static final byte[] SECRET =
      "a fuzzing secret of 32 bytes....".getBytes(StandardCharsets.US_ASCII);
  private static final Cursors CURSORS = new Cursors(SECRET);
  private static final RequestStates STATES =
      new RequestStates(SECRET, InstantSource.fixed(Instant.parse("2026-11-24T00:00:00Z")));

  /** The input's first line is a prompt name to round-trip, the rest a cursor from a client. */
  @FuzzTest(maxDuration = "10m")
  void cursor(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    int nl = text.indexOf('\n');
    String name = nl < 0 ? text : text.substring(0, nl);
    String cursor = nl < 0 ? "" : text.substring(nl + 1);
    assertThat(CURSORS.decode(CURSORS.encode(name))).isEqualTo(name);
    try {
      CURSORS.decode(cursor);
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(-32602);
      Safe.message(e.getMessage());
    }
  }

  /**
   * The input's first byte says whether the rest is signed here (odd) or sent as it is (even) and
   * whether a subject presents it (bit 1); the state is checked against the digest "d" of a fixed
   * request.
   */
  @FuzzTest(maxDuration = "10m")
  void requestState(byte[] input) throws Exception {
    boolean signed = input.length > 0 && (input[0] & 1) == 1;
    String subject = input.length > 0 && (input[0] & 2) == 2 ? "alice" : null;
    String digest = "d";
    byte[] payload = input.length == 0 ? input : Arrays.copyOfRange(input, 1, input.length);
    String text;
    if (signed) {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
      Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
      text = b64.encodeToString(payload) + "." + b64.encodeToString(mac.doFinal(payload));
    } else {
      text = new String(payload, StandardCharsets.UTF_8);
    }
    try {
      RequestStates.State s = STATES.open(text, "prompts/get", digest, subject);
      assertThat(STATES.open(STATES.seal(s), "prompts/get", digest, subject)).isEqualTo(s);
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(-32602);
      Safe.message(e.getMessage());
    }
  }

  /** The input is the JSON of an answer to a form that asked for "text" and "count". */
  @FuzzTest(maxDuration = "10m")
  void formAnswer(byte[] input) {
    Set<String> asked = Set.of("text", "count");
    Json answer;
    try {
      answer = JsonCodec.parse(input, 0, input.length);
    } catch (JsonException e) {
      return;
    }
    try {
      FormElicitation.Answer a = FormElicitation.read(answer, asked, "inputResponses.arguments");
      assertThat(asked).containsAll(a.values().keySet());
      for (Map.Entry<String, String> e : a.values().entrySet()) {
        assertThat(e.getValue().length()).isLessThanOrEqualTo(FormElicitation.MAX_VALUE_CHARS);
      }
    } catch (McpException e) {
      assertThat(e.code()).isEqualTo(-32602);
      Safe.message(e.getMessage());
    }
  }
}
