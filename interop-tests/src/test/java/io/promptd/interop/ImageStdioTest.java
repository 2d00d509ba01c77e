package io.promptd.interop;

import static io.promptd.interop.Distribution.concat;
import static io.promptd.interop.Distribution.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.interop.Processes.Result;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container image as an MCP package, with real podman (where it can run containers, as
 * DistributionTest decides): it carries the MCP Registry's label, speaks stdio when given
 * {@code serve /prompts} — the README's command as written, and the command a client builds from
 * server.json's {@code oci} package — and its one entrypoint's start-up cache (the HTTP one, whose
 * training serves stdio first) serves promptd's stdio classes too. HTTP, the default command, is
 * DistributionTest's.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ImageStdioTest {
  private static final Duration ANSWER = Duration.ofSeconds(60);

  @Test
  void theImageCarriesTheLabelAndServesStdio(@TempDir Path dir) throws Exception {
    Path image = Distribution.built().image();
    Path readme = Peers.ROOT.resolve("docs/install.md");
    List<List<String>> commands = DocCommands.commands(
        DocCommands.block(readme, "### The image over stdio", "sh"),
        Map.of("PWD", Peers.ROOT.toString()));
    assertThat(commands).hasSize(1);
    List<String> readmeRun = commands.getFirst();
    assertThat(readmeRun.subList(0, 4)).containsExactly("podman", "run", "-i", "--rm");
    assertThat(readmeRun.subList(readmeRun.size() - 2, readmeRun.size()))
        .containsExactly("serve", "/prompts");
    List<String> podman = podman();
    Assumptions.assumeTrue(podman != null, "podman (and runc) not installed");
    Path conf = dir.resolve("no-ulimits.conf");
    Files.writeString(conf, DocCommands.block(readme, "## Container image", "toml"));
    Map<String, String> env = Map.of("CONTAINERS_CONF", conf.toString());
    Result loaded =
        run(concat(podman, "load", "-i", image.toString()), env, dir, Duration.ofMinutes(3));
    assertThat(loaded.status()).as(loaded.err()).isZero();
    String ref = loaded
        .out()
        .lines()
        .filter(l -> l.startsWith("Loaded image:"))
        .findFirst()
        .orElseThrow()
        .substring("Loaded image:".length())
        .strip();
    try {
      Result label = run(
          concat(
              podman,
              "image",
              "inspect",
              "--format",
              "{{index .Labels \"io.modelcontextprotocol.server.name\"}}",
              ref),
          env,
          dir,
          Duration.ofMinutes(1));
      assertThat(label.status()).as(label.err()).isZero();
      assertThat(label.out().strip()).isEqualTo(ServerJsonTest.NAME);

      // The README's line, with podman's runc runtime and the loaded image's name.
      List<String> asWritten = new ArrayList<>(podman);
      asWritten.addAll(readmeRun.subList(1, readmeRun.size() - 3));
      assertThat(readmeRun.get(readmeRun.size() - 3))
          .isEqualTo("localhost/promptd:" + McpbBundleTest.pomVersion());
      asWritten.addAll(List.of(ref, "serve", "/prompts"));
      Result probe =
          run(concat(podman, "run", "--rm", ref, "--version"), env, dir, Duration.ofMinutes(2));
      Assumptions.assumeTrue(
          probe.status() == 0, () -> "podman cannot run containers here: " + probe.err());
      servesTheExamples(asWritten, env, dir.resolve("readme.err"));

      // What a client runs for server.json's oci package: `run -i --rm`, the runtime arguments
      // (their variables filled in), the image (here the loaded one, not the registry's), the
      // package arguments.
      JsonObject oci = ociPackage();
      List<String> fromServerJson = new ArrayList<>(concat(podman, "run", "-i", "--rm"));
      for (Json a : oci.array("runtimeArguments").orElseThrow().elements()) {
        JsonObject arg = (JsonObject) a;
        fromServerJson.add(arg.string("name").orElseThrow());
        fromServerJson.add(arg.string("value")
            .orElseThrow()
            .replace("{prompt_folder}", Peers.ROOT.resolve("examples/prompts").toString()));
      }
      fromServerJson.add(ref);
      for (Json a : oci.array("packageArguments").orElseThrow().elements()) {
        fromServerJson.add(((JsonObject) a).string("value").orElseThrow());
      }
      servesTheExamples(fromServerJson, env, dir.resolve("server-json.err"));

      // The entrypoint with the class-loading log added (to a folder the image's user may write),
      // stdin empty.
      Path out = Files.createDirectories(dir.resolve("out"));
      Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxrwxrwx"));
      Result inspected = run(
          concat(podman, "image", "inspect", "--format", "{{json .Config.Entrypoint}}", ref),
          env,
          dir,
          Duration.ofMinutes(1));
      List<String> entrypoint =
          strings((JsonArray) JsonCodec.parse(inspected.out().strip()));
      List<String> logged = new ArrayList<>(entrypoint.subList(1, entrypoint.size()));
      logged.add(logged.indexOf("-cp"), "-Xlog:class+load=info:file=/out/classes.log");
      List<String> once =
          new ArrayList<>(concat(podman, "run", "--rm", "--entrypoint", entrypoint.getFirst()));
      once.addAll(List.of(
          "-v", Peers.ROOT.resolve("examples/prompts") + ":/prompts:ro", "-v", out + ":/out", ref));
      once.addAll(logged);
      once.addAll(List.of("serve", "/prompts"));
      Result ran = run(once, env, dir, Duration.ofMinutes(2));
      assertThat(ran.status()).as(ran.err()).isZero();
      assertThat(Files.readString(out.resolve("classes.log")))
          .contains("io.promptd.cli.Main source: shared objects file")
          .contains("io.promptd.mcp.stdio.StdioTransport source: shared objects file");
    } finally {
      run(concat(podman, "rmi", "-f", ref), env, dir, Duration.ofMinutes(1));
    }
  }

  private static void servesTheExamples(List<String> command, Map<String, String> env, Path err)
      throws Exception {
    Map<String, String> all = new HashMap<>(System.getenv());
    all.putAll(env);
    try (StdioSession session = StdioSession.start(command, all, Peers.ROOT, err)) {
      JsonObject init = session.initialize(ANSWER);
      assertThat(init.object("result")
              .orElseThrow()
              .object("serverInfo")
              .orElseThrow()
              .string("name"))
          .contains("promptd");
      JsonObject listed = session.request(2, "prompts/list", "{}", ANSWER);
      assertThat(JsonCodec.write(listed)).contains("\"explain\"", "\"brand-colors\"");
      JsonObject got = session.request(
          3, "prompts/get", "{\"name\":\"explain\",\"arguments\":{\"code\":\"x = 1\"}}", ANSWER);
      assertThat(JsonCodec.write(got.object("result").orElseThrow())).contains("x = 1");
    }
    assertThat(Files.readString(err)).contains("serving 7 prompt(s) over stdio");
  }

  private static JsonObject ociPackage() throws Exception {
    JsonObject server =
        (JsonObject) JsonCodec.parse(Files.readString(Peers.ROOT.resolve("server.json")));
    for (Json p : server.array("packages").orElseThrow().elements()) {
      if (((JsonObject) p).string("registryType").orElseThrow().equals("oci")) {
        return (JsonObject) p;
      }
    }
    throw new AssertionError("server.json has no oci package");
  }

  private static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    for (Json element : array.elements()) {
      out.add(((JsonString) element).value());
    }
    return out;
  }

  /** podman with runc, as DistributionTest runs it, or null where either is missing. */
  private static @Nullable List<String> podman() {
    for (String d : List.of("/usr/bin", "/usr/sbin", "/bin")) {
      if (Files.isExecutable(Path.of(d, "podman"))) {
        for (String r : List.of("/usr/sbin/runc", "/usr/bin/runc")) {
          if (Files.isExecutable(Path.of(r))) {
            return List.of(d + "/podman", "--runtime", r);
          }
        }
      }
    }
    return null;
  }
}
