package io.promptd.interop;

import static io.promptd.interop.Distribution.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.interop.Processes.Result;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP Bundle {@code bin/release-mcpb} builds beside the release archive
 * ({@code promptd-VERSION-linux-ARCH.mcpb}, Claude Desktop's one-click install), with the pinned
 * mcpb CLI of {@code interop/tools}: its manifest passes {@code mcpb validate} and its tree
 * {@code mcpb pack}; unpacked by {@code mcpb unpack} and by plain {@code unzip} into a folder whose
 * path has a space (as Claude Desktop's has), and started exactly as its manifest says —
 * {@code ${__dirname}} and {@code ${user_config.…}} substituted as the MCPB spec says and as the
 * mcpb library's {@code getMcpConfigForManifest} does — with a PATH that holds nothing and no
 * JAVA_HOME, it serves the chosen folders over stdio on its own runtime, and its stdio start-up
 * cache still serves promptd's classes.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class McpbBundleTest {
  private static final Path TOOLS = Peers.ROOT.resolve("interop/tools/node_modules");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]+)}");
  private static final Duration ANSWER = Duration.ofSeconds(60);

  private static Path bundle;

  // The first class to ask builds the distribution (up to Distribution's own 12 minutes): longer
  // than the default 120 s for a lifecycle method on a loaded machine.
  @BeforeAll
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  static void build() throws Exception {
    Path archive = Distribution.built().archive();
    String name = archive.getFileName().toString();
    bundle =
        archive.resolveSibling(name.substring(0, name.length() - ".tar.gz".length()) + ".mcpb");
    assertThat(bundle).as("bin/release wrote the bundle beside " + name).isRegularFile();
    assertThat(TOOLS.resolve(".bin/mcpb"))
        .as("interop/tools installed (npm ci)")
        .isRegularFile();
  }

  @Test
  void theManifestValidatesAndTheTreePacksAgain(@TempDir Path dir) throws Exception {
    Path home = unpackWithMcpb(dir.resolve("unpacked"));
    JsonObject manifest = manifest(home);
    assertThat(manifest.string("manifest_version")).contains("0.3");
    assertThat(manifest.string("version")).contains(pomVersion());
    JsonObject server = manifest.object("server").orElseThrow();
    assertThat(server.string("type")).contains("binary");
    assertThat(server.string("entry_point")).contains("runtime/bin/java");
    assertThat(manifest.get("prompts_generated")).isEqualTo(JsonBoolean.TRUE);
    assertThat(strings(
            manifest.object("compatibility").orElseThrow().array("platforms").orElseThrow()))
        .containsExactly("linux");
    JsonObject folders =
        manifest.object("user_config").orElseThrow().object("prompt_folders").orElseThrow();
    assertThat(folders.string("type")).contains("directory");
    assertThat(folders.get("required")).isEqualTo(JsonBoolean.TRUE);
    assertThat(JsonCodec.write(manifest)).doesNotContainPattern("@[A-Z_]+@");
    // Only what a stdio server needs: no shell launcher, no HTTP cache; the licenses of all it
    // carries.
    assertThat(home.resolve("bin")).doesNotExist();
    assertThat(home.resolve("lib/promptd-http.aot")).doesNotExist();
    for (String file :
        List.of("LICENSE", "NOTICE", "README.md", "icon.png", "runtime/legal/java.base/LICENSE")) {
      assertThat(home.resolve(file)).as("the bundle carries " + file).isRegularFile();
    }

    // The README's look at the manifest, on the bundle this build made.
    List<List<String>> readme = DocCommands.commands(
        DocCommands.block(
            Peers.ROOT.resolve("docs/install.md"), "## Claude Desktop: the one-click bundle", "sh"),
        Map.of());
    assertThat(readme).hasSize(1);
    List<String> show = new ArrayList<>(readme.getFirst());
    assertThat(show.get(2)).isEqualTo("target/release/" + bundle.getFileName());
    show.set(2, bundle.toString());
    Result shown = run(show, Map.of(), dir, Duration.ofMinutes(1));
    assertThat(shown.status()).as(shown.err()).isZero();
    assertThat(JsonCodec.parse(shown.out()))
        .isEqualTo(JsonCodec.parse(Files.readString(home.resolve("manifest.json"))));

    Result validated = run(
        List.of(mcpb(), "validate", home.resolve("manifest.json").toString()),
        Map.of(),
        dir,
        Duration.ofMinutes(1));
    assertThat(validated.status()).as(validated.out() + validated.err()).isZero();
    assertThat(validated.out()).contains("Manifest schema validation passes!");
    Path again = dir.resolve("again.mcpb");
    Result packed = run(
        List.of(mcpb(), "pack", home.toString(), again.toString()),
        Map.of(),
        dir,
        Duration.ofMinutes(3));
    assertThat(packed.status()).as(packed.out() + packed.err()).isZero();
    assertThat(listing(again, dir)).isEqualTo(listing(bundle, dir));
  }

  @Test
  void unpackedByMcpbItServesTheChosenFoldersOnItsOwnRuntime(@TempDir Path dir) throws Exception {
    Path home = unpackWithMcpb(dir.resolve("Claude Extensions/promptd"));
    Path prompts = promptFolder(dir.resolve("my prompts"));
    Path skills = Files.createDirectories(dir.resolve("my skills/hello"));
    Files.writeString(
        skills.resolve("SKILL.md"),
        "---\nname: hello\ndescription: Greets the team.\n---\nSay hello.\n");
    Map<String, List<String>> userConfig = Map.of(
        "prompt_folders",
        List.of(prompts.toString()),
        "skill_folders",
        List.of(skills.getParent().toString()));
    List<String> command = command(home, userConfig);
    assertThat(command.subList(command.size() - 3, command.size()))
        .containsExactly("serve", prompts.toString(), skills.getParent().toString());
    servesAsTheManifestSays(home, command, dir, List.of("bundle-check", "hello"));
  }

  @Test
  void unzippedPlainlyItServesTooWithTheOptionalFoldersLeftOut(@TempDir Path dir) throws Exception {
    Path home = Files.createDirectories(dir.resolve("Claude Extensions/promptd"));
    Result unzipped = run(
        List.of("unzip", "-q", bundle.toString(), "-d", home.toString()),
        Map.of(),
        dir,
        Duration.ofMinutes(2));
    assertThat(unzipped.status()).as(unzipped.err()).isZero();
    Path prompts = promptFolder(dir.resolve("my prompts"));
    // skill_folders unset: its default, an empty list, adds no argument.
    List<String> command = command(home, Map.of("prompt_folders", List.of(prompts.toString())));
    assertThat(command.subList(command.size() - 2, command.size()))
        .containsExactly("serve", prompts.toString());
    servesAsTheManifestSays(home, command, dir, List.of("bundle-check"));
  }

  /**
   * Runs {@code command} with nothing on PATH and no JAVA_HOME (Claude Desktop's own environment is
   * not promptd's concern: the command names the bundled java), speaks MCP to it over stdio, then
   * runs it once more with the class-loading log added to the JVM options to see where promptd's
   * classes come from.
   */
  private static void servesAsTheManifestSays(
      Path home, List<String> command, Path dir, List<String> expected) throws Exception {
    Path java = home.resolve("runtime/bin/java");
    assertThat(Files.isExecutable(java))
        .as("runtime/bin/java keeps its executable bit")
        .isTrue();
    assertThat(command.getFirst()).isEqualTo(java.toString());
    Path nothing = Files.createDirectories(dir.resolve("empty-path"));
    Map<String, String> env = Map.of("PATH", nothing.toString(), "HOME", dir.toString());
    Path err = dir.resolve("serve.err");
    try (StdioSession session = StdioSession.start(command, env, dir, err)) {
      JsonObject init = session.initialize(ANSWER);
      assertThat(init.object("result")
              .orElseThrow()
              .object("serverInfo")
              .orElseThrow()
              .string("version"))
          .contains(pomVersion());
      Path exe = Files.readSymbolicLink(
          Path.of("/proc", String.valueOf(session.process().pid()), "exe"));
      assertThat(exe).isEqualTo(java.toRealPath());
      JsonObject listed = session.request(2, "prompts/list", "{}", ANSWER);
      List<String> names = new ArrayList<>();
      for (Json prompt :
          listed.object("result").orElseThrow().array("prompts").orElseThrow().elements()) {
        names.add(((JsonObject) prompt).string("name").orElseThrow());
      }
      assertThat(names).containsExactlyInAnyOrderElementsOf(expected);
      JsonObject got = session.request(
          3,
          "prompts/get",
          "{\"name\":\"bundle-check\",\"arguments\":{\"who\":\"Claude Desktop\"}}",
          ANSWER);
      assertThat(JsonCodec.write(got.object("result").orElseThrow()))
          .contains("Hello Claude Desktop, from the bundle.");
    }
    String stderr = Files.readString(err);
    assertThat(stderr).contains("over stdio").doesNotContain("Exception:");
    // A cache the JVM refused (another JVM, changed jars) is a warning on stderr, which the options
    // keep.
    assertThat(stderr).doesNotContainPattern("\\[(warning|error) *\\]\\[(aot|cds)");

    // The same command with the class-loading log among the JVM options (-Xlog:disable comes first,
    // so it is added after it); stdin empty, so it serves, reads the end of its input and exits.
    Path log = dir.resolve("classes.log");
    List<String> logged = new ArrayList<>(command);
    logged.add(logged.indexOf("-cp"), "-Xlog:class+load=info:file=" + log);
    Result once = run(logged, env, dir, Duration.ofMinutes(1));
    assertThat(once.status()).as(once.err()).isZero();
    assertThat(Files.readString(log))
        .contains("io.promptd.cli.Main source: shared objects file")
        .contains("io.promptd.mcp.stdio.StdioTransport source: shared objects file");
  }

  /**
   * The manifest's command and arguments for {@code userConfig}, substituted as the MCPB manifest
   * spec says (an argument that is exactly {@code ${user_config.KEY}} of a list becomes one
   * argument per element; a key the user left unset takes its default), checked against the mcpb
   * library's own {@code getMcpConfigForManifest}.
   */
  private static List<String> command(Path home, Map<String, List<String>> userConfig)
      throws Exception {
    JsonObject manifest = manifest(home);
    Map<String, List<String>> values = new LinkedHashMap<>();
    manifest.object("user_config").orElseThrow().members().forEach((key, option) -> {
      Json fallback = ((JsonObject) option).get("default");
      if (fallback instanceof JsonArray list) {
        values.put("user_config." + key, strings(list));
      }
    });
    userConfig.forEach((key, value) -> values.put("user_config." + key, value));
    values.put("__dirname", List.of(home.toString()));
    JsonObject config =
        manifest.object("server").orElseThrow().object("mcp_config").orElseThrow();
    List<String> command = new ArrayList<>();
    command.add(substitute(config.string("command").orElseThrow(), values));
    for (String arg : strings(config.array("args").orElseThrow())) {
      Matcher whole = VARIABLE.matcher(arg);
      if (whole.matches() && values.containsKey(whole.group(1))) {
        command.addAll(values.get(whole.group(1)));
      } else {
        command.add(substitute(arg, values));
      }
    }
    assertThat(command).noneMatch(a -> a.contains("${"));

    String script = """
        const [index, home, config] = process.argv.slice(1);
        const { getMcpConfigForManifest } = await import(index);
        const { readFileSync } = await import("node:fs");
        const manifest = JSON.parse(readFileSync(home + "/manifest.json", "utf-8"));
        const out = await getMcpConfigForManifest({ manifest, extensionPath: home, systemDirs: {},
          userConfig: JSON.parse(config), pathSeparator: "/" });
        console.log(JSON.stringify([out.command, ...out.args]));
        """;
    JsonObject.Builder given = JsonObject.builder();
    userConfig.forEach((key, value) -> given.put(key, JsonArray.ofStrings(value)));
    Result reference = run(
        List.of(
            "node",
            "--input-type=module",
            "-e",
            script,
            TOOLS.resolve("@anthropic-ai/mcpb/dist/index.js").toUri().toString(),
            home.toString(),
            JsonCodec.write(given.build())),
        Map.of(),
        home,
        Duration.ofMinutes(1));
    assertThat(reference.status()).as(reference.err()).isZero();
    assertThat(command)
        .as("the mcpb library's getMcpConfigForManifest")
        .isEqualTo(strings((JsonArray) JsonCodec.parse(reference.out().strip())));
    return command;
  }

  private static String substitute(String text, Map<String, List<String>> values) {
    return VARIABLE.matcher(text).replaceAll(m -> {
      List<String> value = values.get(m.group(1));
      return Matcher.quoteReplacement(value == null ? m.group() : String.join(",", value));
    });
  }

  private static Path unpackWithMcpb(Path home) throws Exception {
    Files.createDirectories(home);
    Result unpacked = run(
        List.of(mcpb(), "unpack", bundle.toString(), home.toString()),
        Map.of(),
        home,
        Duration.ofMinutes(2));
    assertThat(unpacked.status()).as(unpacked.out() + unpacked.err()).isZero();
    return home;
  }

  /** A folder with one prompt of this test's own and one from the examples. */
  private static Path promptFolder(Path dir) throws Exception {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("bundle-check.prompt.md"), """
        ---
        description: Checks that the bundle serves this folder.
        arguments:
          - name: who
            required: true
        ---
        Hello {{who}}, from the bundle.
        """);
    return dir;
  }

  /**
   * The names in a zip, sorted (the mtimes differ from pack to pack; the names and modes must not).
   */
  private static List<String> listing(Path zip, Path dir) throws Exception {
    Result listed =
        run(List.of("unzip", "-Z", zip.toString()), Map.of(), dir, Duration.ofMinutes(1));
    assertThat(listed.status()).as(listed.err()).isZero();
    try (Stream<String> lines = listed.out().lines()) {
      return lines
          .filter(l -> l.matches("^[-?d][rwx-]{9} .*"))
          .map(l -> l.substring(0, 10) + " " + l.substring(l.lastIndexOf(' ') + 1))
          .sorted()
          .toList();
    }
  }

  private static JsonObject manifest(Path home) throws Exception {
    return (JsonObject) JsonCodec.parse(Files.readString(home.resolve("manifest.json")));
  }

  private static String mcpb() {
    return TOOLS.resolve(".bin/mcpb").toString();
  }

  static String pomVersion() throws Exception {
    Matcher m = Pattern.compile("\n  <version>([^<]+)</version>")
        .matcher(Files.readString(Peers.ROOT.resolve("pom.xml")));
    assertThat(m.find()).as("the root pom's version").isTrue();
    return m.group(1);
  }

  private static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    for (Json element : array.elements()) {
      out.add(((JsonString) element).value());
    }
    return out;
  }
}
