import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * Checks a local staging repository (bin/stage deploys to it) as Maven Central's validation would: each published
 * artifact has its POM, jar, sources jar and javadoc jar (with an index.html), a .sha1 and .md5 beside every file,
 * and a flattened POM (no parent to fetch, no ${...} left, every dependency versioned) that names the project. Prints
 * one line per problem. Exit 0: all there; 2: only the metadata only the project's owner can give is missing (url,
 * licenses, scm, developers); 1: anything else.
 *   java bin/StagingCheck.java STAGING_DIR
 */
public class StagingCheck {
  static final List<String> JARS = List.of("promptd-mcp-core", "promptd-mcp-stdio", "promptd-mcp-http",
      "promptd-catalog", "promptd-mcp-client", "promptd-prompt-library", "promptd-prompt-store",
      "promptd-prompt-store-sessions", "promptd-java-sdk", "promptd-java-sdk-modern",
      "promptd-java-sdk-endpoint");
  static final List<String> POMS = List.of("promptd-parent", "promptd-bom");
  static final List<String> OWNER = List.of("url", "licenses", "scm", "developers");

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]).resolve("io/promptd");
    List<String> problems = new ArrayList<>();
    Set<String> ownerMissing = new TreeSet<>();
    List<String> all = new ArrayList<>(JARS);
    all.addAll(POMS);
    for (String artifact : all) {
      Path dir = newestVersionDir(root.resolve(artifact));
      if (dir == null) {
        problems.add(artifact + ": not deployed");
        continue;
      }
      Path pom = one(dir, artifact, ".pom", problems);
      if (JARS.contains(artifact)) {
        one(dir, artifact, ".jar", problems);
        one(dir, artifact, "-sources.jar", problems);
        Path javadoc = one(dir, artifact, "-javadoc.jar", problems);
        if (javadoc != null) {
          try (ZipFile zip = new ZipFile(javadoc.toFile())) {
            if (zip.getEntry("index.html") == null) {
              problems.add(artifact + ": the javadoc jar has no index.html");
            }
          }
        }
      }
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.toList()) {
          String n = f.getFileName().toString();
          if ((n.endsWith(".jar") || n.endsWith(".pom")) && (!Files.exists(Path.of(f + ".sha1"))
              || !Files.exists(Path.of(f + ".md5")))) {
            problems.add(artifact + ": " + n + " has no .sha1 or .md5 beside it");
          }
        }
      }
      if (pom != null) {
        checkPom(artifact, Files.readString(pom), problems, ownerMissing);
      }
    }
    String parentVersion = version(newestVersionDir(root.resolve("promptd-parent")));
    String bomVersion = version(newestVersionDir(root.resolve("promptd-bom")));
    if (parentVersion != null && !parentVersion.equals(bomVersion)) {
      problems.add("promptd-bom: version " + bomVersion + ", the libraries' is " + parentVersion);
    }
    problems.forEach(p -> System.out.println("staging: " + p));
    if (!ownerMissing.isEmpty()) {
      System.out.println("staging: missing metadata only the owner can give (every POM): " + String.join(", ",
          ownerMissing));
    }
    System.exit(!problems.isEmpty() ? 1 : ownerMissing.isEmpty() ? 0 : 2);
  }

  static void checkPom(String artifact, String pom, List<String> problems, Set<String> ownerMissing) {
    String project = pom.replaceAll("(?s)<dependencies>.*?</dependencies>", "")
        .replaceAll("(?s)<dependencyManagement>.*", "");
    for (String tag : List.of("name", "description")) {
      if (!project.contains("<" + tag + ">")) {
        problems.add(artifact + ": the POM has no <" + tag + ">");
      }
    }
    for (String tag : OWNER) {
      if (!project.contains("<" + tag + ">")) {
        ownerMissing.add(tag);
      }
    }
    // A BOM's ${project.version} is its own version when imported; anything else would be left unresolved.
    String expressions = artifact.equals("promptd-bom") ? pom.replace("${project.version}", "") : pom;
    if (expressions.contains("${")) {
      problems.add(artifact + ": the POM still holds a ${...} expression");
    }
    if (!artifact.equals("promptd-bom") && !artifact.equals("promptd-parent") && pom.contains("<parent>")) {
      problems.add(artifact + ": the POM names a parent (not flattened)");
    }
    Matcher m = Pattern.compile("(?s)<dependency>(.*?)</dependency>").matcher(pom);
    while (m.find()) {
      if (!m.group(1).contains("<version>")) {
        problems.add(artifact + ": a dependency without a version: " + m.group(1).replaceAll("\\s+", " ").strip());
      }
    }
  }

  static String version(Path versionDir) {
    return versionDir == null ? null : versionDir.getFileName().toString();
  }

  static Path newestVersionDir(Path artifact) throws IOException {
    if (!Files.isDirectory(artifact)) {
      return null;
    }
    try (Stream<Path> versions = Files.list(artifact)) {
      return versions.filter(Files::isDirectory).sorted().reduce((a, b) -> b).orElse(null);
    }
  }

  static Path one(Path dir, String artifact, String suffix, List<String> problems) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> found = files.filter(f -> {
        String n = f.getFileName().toString();
        return n.startsWith(artifact + "-") && n.endsWith(suffix)
            && (suffix.startsWith("-") || !n.matches(".*-(sources|javadoc|tests)\\.jar"));
      }).sorted().toList();
      if (found.isEmpty()) {
        problems.add(artifact + ": no " + suffix + " file");
        return null;
      }
      return found.getLast();
    }
  }
}
