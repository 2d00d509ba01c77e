package io.promptd.mcp.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
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
 * The pinned MCP schemas are exactly the upstream files {@code third_party/mcp-spec/SHA256SUMS}
 * lists: a schema edited by hand (or a file added without its checksum) would make every schema
 * check in the build check something else.
 */
class SpecChecksumsTest {
  /** Files beside the schemas that are about them rather than part of them. */
  private static final Set<String> PAPERWORK = Set.of("LICENSE", "README.md", "SHA256SUMS");

  @Test
  void thePinnedSchemasMatchTheirChecksums() {
    Path dir = SpecDir.path();
    assertThat(problems(dir))
        .as(
            "%s differs from what SHA256SUMS pins; restore the files from the upstream tag named in its README.md,"
                + " or when updating them on purpose, update README.md and SHA256SUMS (sha256sum */schema.json) with them",
            dir)
        .isEmpty();
  }

  @Test
  void aChangedByteAnUnlistedFileAndAMissingFileAreEachReported(@TempDir Path copy)
      throws IOException {
    Files.writeString(
        copy.resolve("SHA256SUMS"), """
        %s  a/schema.json
        %s  gone/schema.json
        """.formatted(sha256(bytes("{}")), sha256(bytes("{}"))));
    Files.createDirectories(copy.resolve("a"));
    Files.writeString(copy.resolve("a/schema.json"), "{ }");
    Files.writeString(copy.resolve("extra.json"), "{}");
    Files.writeString(copy.resolve("LICENSE"), "not checked");

    assertThat(problems(copy))
        .containsExactly(
            "a/schema.json: SHA-256 is " + sha256(bytes("{ }")) + ", SHA256SUMS says "
                + sha256(bytes("{}")),
            "gone/schema.json: listed in SHA256SUMS but missing",
            "extra.json: not listed in SHA256SUMS");
  }

  /**
   * Every difference between {@code dir}'s files and its {@code SHA256SUMS}, one line each, paths
   * relative to it.
   */
  static List<String> problems(Path dir) {
    Path sums = dir.resolve("SHA256SUMS");
    if (!Files.isRegularFile(sums)) {
      return List.of(sums + ": missing");
    }
    Map<String, String> listed = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (String line : read(sums).lines().filter(l -> !l.isBlank()).toList()) {
      // sha256sum's format: the hex digest, a space, a space (text mode) or '*' (binary mode), the
      // path.
      if (!line.matches("[0-9a-f]{64} [ *].+")) {
        problems.add("SHA256SUMS: not a sha256sum line: " + line);
      } else {
        listed.put(line.substring(66), line.substring(0, 64));
      }
    }
    listed.forEach((file, expected) -> {
      Path path = dir.resolve(file);
      if (!Files.isRegularFile(path)) {
        problems.add(file + ": listed in SHA256SUMS but missing");
      } else {
        String actual = sha256(readBytes(path));
        if (!actual.equals(expected)) {
          problems.add(file + ": SHA-256 is " + actual + ", SHA256SUMS says " + expected);
        }
      }
    });
    try (Stream<Path> files = Files.walk(dir)) {
      files
          .filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString().replace('\\', '/'))
          .filter(f -> !PAPERWORK.contains(f) && !listed.containsKey(f))
          .sorted()
          .forEach(f -> problems.add(f + ": not listed in SHA256SUMS"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return problems;
  }

  private static String sha256(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String read(Path p) {
    return new String(readBytes(p), StandardCharsets.UTF_8);
  }

  private static byte[] readBytes(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
