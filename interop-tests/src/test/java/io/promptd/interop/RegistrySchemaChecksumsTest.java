package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pinned MCP Registry schema is exactly the upstream file
 * {@code third_party/mcp-registry/SHA256SUMS} lists, as mcp-core's {@code SpecChecksumsTest} holds
 * the MCP schemas to theirs: a schema edited by hand would make the server.json checks check
 * something else.
 */
class RegistrySchemaChecksumsTest {
  static final Path DIR = Peers.ROOT.resolve("third_party/mcp-registry");

  /** Files beside the schema that are about it rather than part of it. */
  private static final Set<String> PAPERWORK = Set.of("LICENSE", "README.md", "SHA256SUMS");

  @Test
  void thePinnedSchemaMatchesItsChecksum() throws Exception {
    assertThat(problems(DIR))
        .as(
            "%s differs from what SHA256SUMS pins; restore the file from the upstream commit named in its README.md,"
                + " or when updating it on purpose, update README.md and SHA256SUMS (sha256sum */server.schema.json)",
            DIR)
        .isEmpty();
    assertThat(Files.readString(DIR.resolve("SHA256SUMS")))
        .contains("2025-12-11/server.schema.json");
  }

  @Test
  void aChangedByteAnUnlistedFileAndAMissingFileAreEachReported(@TempDir Path copy)
      throws Exception {
    Files.writeString(
        copy.resolve("SHA256SUMS"), """
        %s  a/server.schema.json
        %s  gone/server.schema.json
        """.formatted(sha256(bytes("{}")), sha256(bytes("{}"))));
    Files.createDirectories(copy.resolve("a"));
    Files.writeString(copy.resolve("a/server.schema.json"), "{ }");
    Files.writeString(copy.resolve("extra.json"), "{}");
    Files.writeString(copy.resolve("LICENSE"), "not checked");

    assertThat(problems(copy))
        .containsExactly(
            "a/server.schema.json: SHA-256 is " + sha256(bytes("{ }")) + ", SHA256SUMS says "
                + sha256(bytes("{}")),
            "gone/server.schema.json: listed in SHA256SUMS but missing",
            "extra.json: not listed in SHA256SUMS");
  }

  /**
   * Every difference between {@code dir}'s files and its {@code SHA256SUMS}, one line each, paths
   * relative to it.
   */
  static List<String> problems(Path dir) throws IOException {
    Path sums = dir.resolve("SHA256SUMS");
    if (!Files.isRegularFile(sums)) {
      return List.of(sums + ": missing");
    }
    Map<String, String> listed = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (String line : Files.readString(sums).lines().filter(l -> !l.isBlank()).toList()) {
      // sha256sum's format: the hex digest, two spaces (text mode) or a space and '*' (binary), the
      // path.
      if (!line.matches("[0-9a-f]{64} [ *].+")) {
        problems.add("SHA256SUMS: not a sha256sum line: " + line);
      } else {
        listed.put(line.substring(66), line.substring(0, 64));
      }
    }
    for (Map.Entry<String, String> entry : listed.entrySet()) {
      Path path = dir.resolve(entry.getKey());
      if (!Files.isRegularFile(path)) {
        problems.add(entry.getKey() + ": listed in SHA256SUMS but missing");
      } else {
        String actual = sha256(Files.readAllBytes(path));
        if (!actual.equals(entry.getValue())) {
          problems.add(
              entry.getKey() + ": SHA-256 is " + actual + ", SHA256SUMS says " + entry.getValue());
        }
      }
    }
    try (Stream<Path> files = Files.walk(dir)) {
      files
          .filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .filter(f -> !PAPERWORK.contains(f) && !listed.containsKey(f))
          .sorted()
          .forEach(f -> problems.add(f + ": not listed in SHA256SUMS"));
    }
    return problems;
  }

  static String sha256(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
