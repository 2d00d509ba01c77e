package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.json;
import static io.promptd.mcp.http.TestClient.modern;
import static io.promptd.mcp.http.TestClient.modernHeaders;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.mcp.server.McpServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Requests larger than the buffer a connection reads them into ({@link JettyServer#INPUT_BUFFER},
 * kept small because an open event stream holds it): headers and a body that each take several
 * reads arrive whole, and Jetty's limit on a request's headers still holds.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InputBufferTest {
  @Test
  void headersAndABodyLargerThanTheBufferArriveWhole() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder().server(server).build().start()) {
      TestClient client = new TestClient(http.uri());
      // ~6 KB of headers (below Jetty's 8 KiB limit) and a ~200 KB body, each several times the
      // buffer
      char[] pad = new char[2000];
      Arrays.fill(pad, 'h');
      List<String> headers =
          new ArrayList<>(List.of(modernHeaders("prompts/get", "test_prompt_with_arguments")));
      for (int i = 0; i < 3; i++) {
        headers.add("X-Padding-" + i);
        headers.add(new String(pad));
      }
      char[] value = new char[200_000];
      Arrays.fill(value, 'v');
      value[value.length - 1] = 'z'; // the last byte, so that a body cut short shows
      String big = new String(value);
      HttpResponse<String> r = client.post(
          modern(
              1,
              "prompts/get",
              "\"name\":\"test_prompt_with_arguments\",\"arguments\":{\"arg1\":\"" + big
                  + "\",\"arg2\":\"b\"}"),
          headers.toArray(String[]::new));
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(TestClient.text(json(r).object("result").orElseThrow())).contains(big);
    }
  }

  @Test
  void headersOverJettysLimitAreStillRefused() throws Exception {
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder().server(server).build().start();
        RawSocket raw = new RawSocket("127.0.0.1", http.port())) {
      String pad = "p".repeat(10_000);
      raw.request(
          "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + http.port() + "\r\nX-Padding: " + pad + "\r\n",
          "{}");
      assertThat(raw.status()).isEqualTo(431);
    }
  }
}
