package io.promptd.javasdk;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.promptd.library.Skills;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A server on the official MCP Java SDK (its stdio transport) that serves {@link Skills} as
 * resources through the adapter, as a Java SDK user would write it: {@code java -cp …
 * io.promptd.javasdk.SdkSkillsServer DIR}, serving the skills of {@code DIR} and those of
 * {@link #skills}.
 */
public final class SdkSkillsServer {
  /** One skill written in code, with a binary file. */
  static final byte[] ICON = {(byte) 0x89, 'P', 'N', 'G', (byte) 0xfe, 0, 7};

  private SdkSkillsServer() {}

  /** The skills the server serves: those of {@code dir} and one built in code. */
  static Skills skills(Path dir) throws Exception {
    return Skills.builder()
        .folder(dir)
        .skill("inline/hello", "---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n")
        .file("inline/hello", "assets/icon.png", ICON)
        .build();
  }

  public static void main(String[] args) throws Exception {
    SdkSkills skills = SdkSkills.of(skills(Path.of(args[0])));
    McpSyncServer server = McpServer.sync(
            new StdioServerTransportProvider(McpJsonDefaults.getMapper()))
        .serverInfo("promptd-java-sdk-skills", "1")
        .capabilities(
            McpSchema.ServerCapabilities.builder().resources(false, true).build())
        .resources(skills.syncResources())
        .build();
    try {
      new CountDownLatch(1).await(); // the SDK's transport serves until the client ends the process
    } finally {
      server.close();
    }
  }
}
