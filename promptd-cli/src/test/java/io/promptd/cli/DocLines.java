package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * What the docs tell an operator to type, read from the docs themselves, and a {@code promptd} for
 * a shell to run it with: the tests run the lines as written, so a doc cannot drift from what was
 * tested.
 */
final class DocLines {
  /** The repository's docs folder. */
  static final Path DOCS = Path.of(System.getProperty("promptd.root", "..")).resolve("docs");

  private DocLines() {}

  /** The body of the first fenced block in {@code lang} after the line {@code heading}. */
  static String block(String doc, String heading, String lang) throws Exception {
    Path file = DOCS.resolve(doc);
    String text = Files.readString(file);
    int at = text.indexOf("\n" + heading + "\n");
    assertThat(at).as(file + " has the heading '" + heading + "'").isNotNegative();
    String fence = "\n```" + lang + "\n";
    int start = text.indexOf(fence, at);
    assertThat(start)
        .as(file + ": a ```" + lang + " block after '" + heading + "'")
        .isNotNegative();
    start += fence.length();
    return text.substring(start, text.indexOf("\n```", start) + 1);
  }

  /**
   * The lines a shell block shows as the commands' output: its comments that start a line, without
   * their {@code "# "}.
   */
  static List<String> printed(String block) {
    return block
        .lines()
        .filter(l -> l.startsWith("# "))
        .map(l -> l.substring(2))
        .toList();
  }

  /** Writes {@code file}, an executable script that runs this build's CLI with its arguments. */
  static Path launcher(Path file) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(
        file,
        "#!/bin/sh\nexec " + CliProcessTest.shell(CliProcessTest.java()).replace(" 2>/dev/null", "")
            + " \"$@\"\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }
}
