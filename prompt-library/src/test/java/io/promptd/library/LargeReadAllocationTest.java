package io.promptd.library;

import static io.promptd.library.Files2.load;
import static io.promptd.library.Files2.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.server.McpServer;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.MessageCodec;
import io.promptd.mcp.spi.Outbound;
import io.promptd.mcp.spi.ServerSession;
import io.promptd.mcp.spi.Wire;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one {@code resources/read} of a large skill file allocates, from the request to the bytes a
 * transport writes: about the file's size, not a multiple of it. Counted with the thread's
 * allocated bytes, so the bound holds however fast the machine is.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LargeReadAllocationTest {
  private static final int SIZE = 15_000_000;

  @TempDir
  Path root;

  @Test
  void aLargeBinarySkillFileIsReadForAboutItsSize() throws Exception {
    byte[] bytes = new byte[SIZE];
    new Random(7).nextBytes(bytes);
    write(root, "big/SKILL.md", "---\nname: big\ndescription: Big.\n---\nB\n");
    write(root, "big/assets/data.bin", bytes);
    assertReadsCheaply("skill://big/assets/data.bin");
  }

  @Test
  void aLargeTextSkillFileIsReadForAboutItsSize() throws Exception {
    byte[] line =
        "a line of \"text\" with a tab\tand an é, ending here\n".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[SIZE];
    for (int i = 0; i < SIZE; i++) {
      bytes[i] = line[i % line.length];
    }
    Arrays.fill(bytes, SIZE - line.length, SIZE, (byte) 'x');
    write(root, "big/SKILL.md", "---\nname: big\ndescription: Big.\n---\nB\n");
    write(root, "big/references/guide.md", bytes);
    assertReadsCheaply("skill://big/references/guide.md");
  }

  private void assertReadsCheaply(String uri) {
    try (Library library = load(root)) {
      McpServer server = McpServer.builder()
          .prompts(library.catalog())
          .resources(library)
          .skills(library.skillProvider())
          .build();
      try (ServerSession session = server.openSession(Outbound.discard())) {
        handle(session, "initialize", """
            {"protocolVersion":"2025-06-18","capabilities":{},\
            "clientInfo":{"name":"test","version":"1"}}""");
        String read = "{\"uri\":\"" + uri + "\"}";
        long first = allocated(() -> handle(session, "resources/read", read));
        long again = allocated(() -> handle(session, "resources/read", read));
        // The first read makes the served form too: base64 makes the blob's chars and the string
        // copies them once more. A read of the same bytes reuses that form.
        String both =
            "first read " + first + " B, a read again " + again + " B, of a file of " + SIZE + " B";
        assertThat(first).as(both).isLessThan(6L * SIZE);
        assertThat(again).as(both).isLessThan(3L * SIZE);
      } finally {
        server.close();
      }
    }
  }

  /**
   * Handles one request as a transport does: decoded, answered, encoded into the buffer it writes.
   */
  private static int handle(ServerSession session, String method, String params) {
    String text =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
    Request request = (Request) ((Incoming.Single) MessageCodec.decode(text)).message();
    Response response = session.handle(request, Outbound.discard());
    ByteBuffer written =
        JsonCodec.writeBuffer(Wire.toJson(response, ProtocolVersion.V2025_06_18), false);
    String head =
        new String(written.array(), 0, Math.min(200, written.limit()), StandardCharsets.UTF_8);
    assertThat(head).doesNotContain("\"error\"");
    return written.remaining();
  }

  private static long allocated(Runnable action) {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().threadId();
    long before = threads.getThreadAllocatedBytes(id);
    action.run();
    return threads.getThreadAllocatedBytes(id) - before;
  }
}
