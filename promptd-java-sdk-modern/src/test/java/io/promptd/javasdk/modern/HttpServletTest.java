package io.promptd.javasdk.modern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same over HTTP: the SDK's {@code HttpServletMcpTransport} serving the feature at {@code /mcp}
 * in a real servlet container (embedded Tomcat, port 0), and the SDK's modern HTTP client.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpServletTest {
  @TempDir
  Path dir;

  @Test
  void pagesRendersAndFormsOverTheSdksServlet() throws Exception {
    SdkModernPrompts prompts = SdkModernPrompts.of(TestPrompts.catalog()).pageSize(2);
    McpServer server = McpServer.builder()
        .serverInfo(McpSchema.Implementation.builder("promptd-modern-http-test", "1.0.0")
            .build())
        .jsonMapper(ModernSdkServer.MAPPER)
        .feature(prompts.feature(ModernSdkServer.MAPPER))
        .build();
    Tomcat tomcat = new Tomcat();
    tomcat.setBaseDir(dir.toString());
    tomcat.setPort(0);
    Context context = tomcat.addContext("", dir.toString());
    Tomcat.addServlet(
            context,
            "mcp",
            HttpServletMcpTransport.builder(server)
                .jsonMapper(ModernSdkServer.MAPPER)
                .endpoint("/mcp")
                .build())
        .addMapping("/mcp");
    tomcat.getConnector();
    tomcat.start();
    try {
      String url = "http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/mcp";
      List<McpSchema.ElicitFormRequest> asked = new ArrayList<>();
      McpSyncClient client = McpClient.sync(HttpClientMcpTransport.builder(url)
              .jsonMapper(ModernSdkServer.MAPPER)
              .build())
          .clientInfo(
              McpSchema.Implementation.builder("sdk-http-client", "1.0.0").build())
          .jsonMapper(ModernSdkServer.MAPPER)
          .formElicitation(form -> {
            asked.add(form);
            return McpSchema.ElicitResult.accept(Map.of("who", "Grace"));
          })
          .build();
      McpSchema.ListPromptsResult first = client.prompts().list();
      assertThat(first.prompts()).extracting(McpSchema.Prompt::name).containsExactly("greet", "p1");
      assertThat(first.nextCursor()).isNotNull();
      assertThat(client.prompts().cursor(first.nextCursor()).list().prompts())
          .extracting(McpSchema.Prompt::name)
          .containsExactly("p2", "p3");
      McpSchema.GetPromptResult r = client.prompt("greet").get();
      assertThat(((McpSchema.TextContent) r.messages().getFirst().content()).text())
          .isEqualTo("Hello, Grace");
      assertThat(asked).hasSize(1);
      assertThatThrownBy(
              () -> client.prompt("greet").arguments(Map.of("who", "nobody")).get())
          .isInstanceOfSatisfying(
              McpException.class, e -> assertThat(e.error().code()).isEqualTo(-32602))
          .hasMessageContaining("'nobody' cannot be greeted");
    } finally {
      tomcat.stop();
      tomcat.destroy();
      server.closeGracefully();
    }
  }
}
