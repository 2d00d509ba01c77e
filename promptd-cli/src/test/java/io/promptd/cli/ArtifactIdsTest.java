package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every artifact the build makes is called {@code promptd-…}: the official Java SDK publishes
 * {@code mcp-core} (and other {@code mcp-…} artifacts), and two jars of one name in an
 * application's {@code lib/} folder, or in a shaded jar's report, would be taken for each other
 * whatever their group.
 */
@Timeout(30)
class ArtifactIdsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
  private static final Pattern ARTIFACT = Pattern.compile("<artifactId>([^<]+)</artifactId>");

  @Test
  void everyModuleIsPrefixedAndTheBomNamesThePublishedOnes() throws IOException {
    List<String> ids = new ArrayList<>();
    for (String module : all(MODULE, Files.readString(ROOT.resolve("pom.xml")))) {
      String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
      // The module's own id follows its <parent> block, if it has one (the BOM has none).
      String own = pom.substring(Math.max(0, pom.indexOf("</parent>")));
      ids.add(all(ARTIFACT, own).getFirst());
    }
    assertThat(ids).hasSizeGreaterThan(10).allSatisfy(id -> assertThat(id).startsWith("promptd-"));
    List<String> inBom = all(ARTIFACT, Files.readString(ROOT.resolve("promptd-bom/pom.xml")));
    assertThat(inBom)
        .as("the BOM's entries")
        .contains("promptd-mcp-core", "promptd-mcp-http", "promptd-prompt-library")
        .allSatisfy(id -> assertThat(id).startsWith("promptd-"));
  }

  private static List<String> all(Pattern p, String text) {
    List<String> found = new ArrayList<>();
    Matcher m = p.matcher(text);
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }
}
