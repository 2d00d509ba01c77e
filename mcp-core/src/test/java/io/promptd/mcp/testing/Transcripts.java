package io.promptd.mcp.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The golden transcripts, read from the class path so that other modules (a transport played over a
 * real process, for example) can replay them through mcp-core's test-jar. Each case holds
 * {@code request.jsonl}, the lines a client sends, and {@code response.jsonl}, exactly what a
 * server over {@link SampleCatalog#server()} answers when the lines are served one at a time, in
 * order.
 */
public final class Transcripts {
  private Transcripts() {}

  /** The names of every case, sorted. */
  public static List<String> cases() {
    return lines("transcripts/cases.txt");
  }

  /** The request lines of {@code name}, blank lines dropped. */
  public static List<String> requests(String name) {
    return lines("transcripts/" + name + "/request.jsonl");
  }

  /** The expected response lines of {@code name}. */
  public static List<String> responses(String name) {
    return lines("transcripts/" + name + "/response.jsonl");
  }

  private static List<String> lines(String resource) {
    try (InputStream in = Transcripts.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .filter(l -> !l.isBlank())
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
