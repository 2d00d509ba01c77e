package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout inside every module, read from its main sources: a package holding {@code internal} is
 * never exported (not even to a named module), and the module's unexported packages (its rooms)
 * import each other without a circle, so each room has a floor. The exported packages are the
 * module's front door: rooms may use their types and they use the rooms, as in any library with
 * internals. A library's room holds at most sixteen files.
 */
class RoomsTest {
  private static final Path ROOT =
      Path.of(System.getProperty("promptd.root", "..")).toAbsolutePath().normalize();
  /** The most files one room of a library holds before it should be split. */
  private static final int MAX_ROOM_FILES = 16;

  private static final Pattern EXPORTS =
      Pattern.compile("^\\s*exports\\s+([\\w.]+)(\\s+to\\s+[^;]+)?;", Pattern.MULTILINE);
  private static final Pattern PACKAGE =
      Pattern.compile("^package\\s+([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern IMPORT =
      Pattern.compile("^import\\s+(?:static\\s+)?(io\\.promptd\\.[\\w.]+);", Pattern.MULTILINE);

  @Test
  void noInternalPackageIsExported() throws IOException {
    List<String> exported = new ArrayList<>();
    for (Path info : moduleInfos()) {
      Matcher m = EXPORTS.matcher(Files.readString(info));
      while (m.find()) {
        if (m.group(1).contains(".internal")) {
          exported.add(ROOT.relativize(info) + ": " + m.group().trim());
        }
      }
    }
    assertThat(moduleInfos()).hasSizeGreaterThan(8);
    assertThat(exported).as("internal packages exported").isEmpty();
  }

  @Test
  void theRoomsOfEachModuleHaveNoCircle() throws IOException {
    Map<String, List<String>> circles = new TreeMap<>();
    for (Path info : moduleInfos()) {
      Path sources = info.getParent();
      Set<String> exported = new TreeSet<>();
      Matcher e = EXPORTS.matcher(Files.readString(info));
      while (e.find()) {
        exported.add(e.group(1));
      }
      Map<String, Set<String>> imports = roomImports(sources);
      imports.keySet().removeAll(exported);
      imports.values().forEach(targets -> targets.retainAll(imports.keySet()));
      for (Set<String> circle : circles(imports)) {
        circles
            .computeIfAbsent(ROOT.relativize(sources).toString(), k -> new ArrayList<>())
            .add(String.join(" <-> ", circle));
      }
    }
    assertThat(circles).as("rooms that import each other in a circle").isEmpty();
  }

  @Test
  void noRoomOfALibraryHoldsMoreThanSixteenFiles() throws IOException {
    Map<String, Integer> crowded = new TreeMap<>();
    for (Path info : moduleInfos()) {
      Set<String> exported = new TreeSet<>();
      Matcher e = EXPORTS.matcher(Files.readString(info));
      while (e.find()) {
        exported.add(e.group(1));
      }
      if (exported.isEmpty()) {
        // An application (the command line), not a library with rooms behind its front door
        continue;
      }
      Map<String, Integer> files = new HashMap<>();
      try (Stream<Path> all = Files.walk(info.getParent())) {
        all.filter(f -> f.toString().endsWith(".java"))
            .filter(f -> !f.getFileName().toString().endsWith("-info.java"))
            .forEach(f -> files.merge(
                info.getParent().relativize(f.getParent()).toString().replace('/', '.'),
                1,
                Integer::sum));
      }
      files.forEach((room, count) -> {
        if (!exported.contains(room) && count > MAX_ROOM_FILES) {
          crowded.put(room, count);
        }
      });
    }
    assertThat(crowded).as("rooms of more than " + MAX_ROOM_FILES + " files").isEmpty();
  }

  /** Each package of the module's main sources to the packages of the module its files import. */
  private static Map<String, Set<String>> roomImports(Path sources) throws IOException {
    Map<String, Set<String>> imports = new HashMap<>();
    try (Stream<Path> files = Files.walk(sources)) {
      files
          .filter(f -> f.toString().endsWith(".java"))
          .filter(f -> !f.getFileName().toString().equals("module-info.java"))
          .forEach(f -> {
            String text;
            try {
              text = Files.readString(f);
            } catch (IOException x) {
              throw new UncheckedIOException(x);
            }
            Matcher p = PACKAGE.matcher(text);
            if (!p.find()) {
              return;
            }
            Set<String> targets = imports.computeIfAbsent(p.group(1), k -> new TreeSet<>());
            Matcher i = IMPORT.matcher(text);
            while (i.find()) {
              String target = packageOf(i.group(1));
              if (!target.equals(p.group(1))) {
                targets.add(target);
              }
            }
          });
    }
    return imports;
  }

  /**
   * The package part of an imported name: the segments before the first that starts with a capital.
   */
  private static String packageOf(String imported) {
    StringBuilder pkg = new StringBuilder();
    for (String segment : imported.split("\\.")) {
      if (!segment.isEmpty() && Character.isUpperCase(segment.charAt(0))) {
        break;
      }
      pkg.append(pkg.isEmpty() ? "" : ".").append(segment);
    }
    return pkg.toString();
  }

  /** The strongly connected components of more than one package (Tarjan), each sorted. */
  private static List<Set<String>> circles(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<Set<String>> found = new ArrayList<>();
    int[] next = {0};
    for (String start : new TreeSet<>(graph.keySet())) {
      if (!index.containsKey(start)) {
        connect(start, graph, index, low, stack, onStack, found, next);
      }
    }
    return found;
  }

  private static void connect(
      String v,
      Map<String, Set<String>> graph,
      Map<String, Integer> index,
      Map<String, Integer> low,
      Deque<String> stack,
      Set<String> onStack,
      List<Set<String>> found,
      int[] next) {
    index.put(v, next[0]);
    low.put(v, next[0]);
    next[0]++;
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        connect(w, graph, index, low, stack, onStack, found, next);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new TreeSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      if (component.size() > 1) {
        found.add(component);
      }
    }
  }

  private static List<Path> moduleInfos() throws IOException {
    try (Stream<Path> modules = Files.list(ROOT)) {
      return modules
          .map(m -> m.resolve("src/main/java/module-info.java"))
          .filter(Files::isRegularFile)
          .sorted()
          .toList();
    }
  }
}
