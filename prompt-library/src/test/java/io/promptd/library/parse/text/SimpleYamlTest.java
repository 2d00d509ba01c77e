package io.promptd.library.parse.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The simple front matter reader gives exactly what SnakeYAML gives, or gives up. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimpleYamlTest {
  private static final List<String> CASES = List.of(
      "",
      "description: Generated prompt 7 for the scale benchmark\narguments:\n  - name: code\n    required: true\n"
          + "  - name: level\n    enum: [low, medium, high]\n    default: medium\n",
      "name: review\ntitle: Review it\ntags: [code, testing]\n",
      "a: 1\nb: 1.5\nc: true\nd: false\ne: null\nf: ~\ng: 0x1F\nh: 1e3\ni: .inf\nj: -.5\nk: 007\nl: TRUE\nm: yes\n",
      "icons:\n  - src: assets/tests.png\n    sizes: [48x48]\n    theme: light\n",
      "arguments:\n- name: indentless\n",
      "arguments:\n  - plain\n  - verbose\n",
      "url: https://example.com/x\nempty: []\nspaces:   many   words  \n",
      "nested:\n  deeper:\n    deepest: value\n  back: here\n",
      "\n\nlate: start\n\n",
      "a: 1\na: 2\n",
      "q: 'quoted'\n",
      "c: value # comment\n",
      "multi: first\n  continued\n",
      "empty:\nnext: 1\n",
      "list: [a, b: c]\n",
      "weird: a: b\n",
      "bad: [unclosed\n",
      "tab:\tx\n",
      "anchor: &a x\nref: *a\n",
      "block: |\n  text\n",
      "dash: -1\n",
      "key:value\n",
      "  indented: top\n",
      "- top level sequence\n",
      "x: [1, 2.5, true, null]\n");

  @Test
  void eitherTheSameNodesAsSnakeYamlOrNothing() throws IOException {
    List<String> inputs = new ArrayList<>(CASES);
    inputs.addAll(frontMatterOfRepositoryFiles());
    int simple = 0;
    for (String yaml : inputs) {
      YamlNode.Mapping fast = SimpleYaml.read(yaml, 2, YamlReader::kind);
      if (fast == null) {
        continue;
      }
      simple++;
      YamlNode.Mapping full;
      try {
        full = YamlReader.readFully(yaml, 2);
      } catch (ParseException e) {
        throw new AssertionError(
            "accepted what SnakeYAML refuses (" + e.getMessage() + "):\n" + yaml, e);
      }
      assertThat(fast).as(yaml).isEqualTo(full);
      assertThat(List.copyOf(fast.keys())).as(yaml).isEqualTo(List.copyOf(full.keys()));
    }
    assertThat(simple).isGreaterThan(10);
    assertThat(SimpleYaml.read(CASES.get(1), 2, YamlReader::kind)).isNotNull();
  }

  /**
   * The front matter of every prompt and resource file of the repository's examples and fixtures.
   */
  private static List<String> frontMatterOfRepositoryFiles() throws IOException {
    List<String> out = new ArrayList<>();
    Path repo = Path.of("..").toAbsolutePath().normalize();
    for (String dir :
        List.of("examples", "fixtures", "interop", "prompt-library/src/test/resources")) {
      Path start = repo.resolve(dir);
      if (!Files.isDirectory(start)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(start)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".md")).toList()) {
          String text = Files.readString(f, StandardCharsets.UTF_8);
          if (text.startsWith("---\n")) {
            int end = text.indexOf("\n---", 3);
            if (end > 0) {
              out.add(text.substring(4, end + 1));
            }
          }
        }
      }
    }
    return out;
  }
}
