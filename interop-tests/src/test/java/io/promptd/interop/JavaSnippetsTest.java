package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code java} block in the docs (README.md, docs/, each module's README.md) is a whole Java
 * file, imports included, and compiles against the current code and the official Java SDK: a reader
 * can paste it into a file of that name and build it. Blocks for the SDK's 2026-07-28 stack
 * ({@code io.modelcontextprotocol.modern}), and those of promptd-java-sdk-endpoint, which is built
 * on it, are left out when the SDK on the class path predates it ({@code -Psdk-2.1}).
 */
class JavaSnippetsTest {
  private static final Pattern CLASS =
      Pattern.compile("(?m)^(?:public )?(?:final )?(?:class|record|interface) (\\w+)");

  /** The official SDK's 2026-07-28 stack, which SDK 2.2.0 was the first to ship. */
  private static final String MODERN_SDK = "io.modelcontextprotocol.modern.";

  /** promptd's module that serves both of the SDK's stacks at one URL. */
  private static final String ENDPOINT = "io.promptd.javasdk.endpoint.";

  /** Whether the official Java SDK on the class path has its 2026-07-28 stack (2.2.0 and later). */
  static boolean sdkHasModernStack() {
    try {
      Class.forName(
          MODERN_SDK + "server.McpServer", false, JavaSnippetsTest.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  record Snippet(Path doc, int line, String code) {
    String where() {
      return Peers.ROOT.relativize(doc) + ":" + line;
    }
  }

  @Test
  void everyJavaBlockInTheDocsIsAWholeFileThatCompiles(@TempDir Path tmp) throws Exception {
    List<Snippet> snippets = snippets();
    assertThat(snippets).as("java blocks in the docs").hasSizeGreaterThanOrEqualTo(7);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> failures = new ArrayList<>();
    int n = 0;
    for (Snippet s : snippets) {
      boolean modern =
          s.code().contains("import " + MODERN_SDK) || s.code().contains("import " + ENDPOINT);
      if (modern && !sdkHasModernStack()) {
        continue; // -Psdk-2.1: that SDK has no modern stack for the block to compile against
      }
      Matcher name = CLASS.matcher(s.code());
      if (!name.find() || !s.code().contains("import ")) {
        failures.add(s.where() + ": not a whole file (its imports and a class)");
        continue;
      }
      Path dir = Files.createDirectories(tmp.resolve("s" + n++));
      Path source = dir.resolve(name.group(1) + ".java");
      Files.writeString(source, s.code(), UTF_8);
      StringWriter out = new StringWriter();
      boolean ok = javac
          .getTask(
              out,
              null,
              null,
              List.of("-classpath", classPath, "-d", dir.toString(), "-proc:none", "-Xlint:none"),
              null,
              javac.getStandardFileManager(null, null, UTF_8).getJavaFileObjects(source))
          .call();
      if (!ok) {
        failures.add(s.where() + ":\n" + out);
      }
    }
    assertThat(failures).as("java blocks that do not compile").isEmpty();
  }

  private static List<Snippet> snippets() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(Peers.ROOT.resolve("README.md"));
    try (Stream<Path> files = Files.walk(Peers.ROOT.resolve("docs"))) {
      files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    try (Stream<Path> modules = Files.list(Peers.ROOT)) {
      modules
          .map(m -> m.resolve("README.md"))
          .filter(Files::isRegularFile)
          .sorted()
          .forEach(docs::add);
    }
    List<Snippet> snippets = new ArrayList<>();
    for (Path doc : docs) {
      List<String> lines = Files.readAllLines(doc, UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).strip().equals("```java")) {
          int start = i + 1;
          StringBuilder code = new StringBuilder();
          for (i = start; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
            code.append(lines.get(i)).append('\n');
          }
          snippets.add(new Snippet(doc, start + 1, code.toString()));
        }
      }
    }
    return snippets;
  }
}
