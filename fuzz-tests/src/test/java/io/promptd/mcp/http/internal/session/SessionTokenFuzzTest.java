package io.promptd.mcp.http.internal.session;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Legacy session ids from the network: forged ones, and ids correctly signed around any payload (to
 * reach the decoding behind the MAC, which only a holder of the secret can feed). Each is a token
 * or null, never an exception.
 */
class SessionTokenFuzzTest {
  private static final byte[] SECRET =
      "a fuzzing secret of 32 bytes....".getBytes(StandardCharsets.US_ASCII);
  private static final SessionTokens TOKENS = new SessionTokens(SECRET);

  /**
   * The input's first byte says whether the rest is signed here (odd) or is the id as it is (even).
   */
  @FuzzTest(maxDuration = "10m")
  void sessionId(byte[] input) throws Exception {
    boolean signed = input.length > 0 && (input[0] & 1) == 1;
    byte[] bytes = input.length == 0 ? input : Arrays.copyOfRange(input, 1, input.length);
    String id;
    if (signed) {
      String payload = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(SECRET, "HmacSHA256"));
      id = payload + "."
          + Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString(mac.doFinal(payload.getBytes(StandardCharsets.US_ASCII)));
    } else {
      id = new String(bytes, StandardCharsets.UTF_8);
    }
    SessionTokens.Token t = TOKENS.verify(id);
    if (t != null) {
      TOKENS.verify(TOKENS.issue(t)); // what it read, it can write again
    }
  }
}
