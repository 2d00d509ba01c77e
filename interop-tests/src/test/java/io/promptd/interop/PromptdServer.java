package io.promptd.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real promptd server: the CLI's main class in a child JVM, serving a copy of a prompt library
 * (so a test can edit it) with a small page size (so listing takes several pages).
 */
final class PromptdServer {
  static final int PAGE_SIZE = 2;

  private PromptdServer() {}

  /** The command that serves {@code library} over stdio, with {@code flags} for {@code serve}. */
  static List<String> stdioCommand(Path library, String... flags) {
    List<String> command = java();
    command.addAll(List.of("serve", "--page-size", String.valueOf(PAGE_SIZE)));
    command.addAll(List.of(flags));
    command.add(library.toString());
    return command;
  }

  /**
   * The command that serves {@code library} over Streamable HTTP on {@code port}, with
   * {@code flags}.
   */
  static List<String> httpCommand(Path library, int port, String... flags) {
    List<String> command = java();
    command.addAll(List.of(
        "serve",
        "--http",
        "--port",
        String.valueOf(port),
        "--page-size",
        String.valueOf(PAGE_SIZE)));
    command.addAll(List.of(flags));
    command.add(library.toString());
    return command;
  }

  /** The same command as one shell string, for peers that take a command line. */
  static String shell(List<String> command) {
    StringBuilder s = new StringBuilder();
    for (String part : command) {
      s.append(s.isEmpty() ? "" : " ")
          .append('\'')
          .append(part.replace("'", "'\\''"))
          .append('\'');
    }
    return s.toString();
  }

  /** Copies the conformance fixture library into {@code dir} and returns it. */
  static Path fixtureCopy(Path dir) throws IOException {
    return copy(Peers.ROOT.resolve("fixtures/conformance"), dir);
  }

  /** Copies the folder {@code source} (a prompt library) into {@code dir} and returns it. */
  static Path copy(Path source, Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(source)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = dir.resolve(source.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
    return dir;
  }

  /** The CLI ({@code promptd ARGS}) run from the test class path. */
  static List<String> cli(String... args) {
    List<String> command = java();
    command.addAll(List.of(args));
    return command;
  }

  /**
   * Writes an executable {@code promptd} script into {@code dir} that runs the CLI from the test
   * class path, as the launcher a user has: what {@code promptd clients} names in the
   * configurations it prints.
   */
  static Path launcher(Path dir) throws IOException {
    Path script = Files.createDirectories(dir).resolve("promptd");
    Files.writeString(script, "#!/bin/sh\nexec " + shell(java()) + " \"$@\"\n");
    script.toFile().setExecutable(true);
    return script;
  }

  /**
   * What {@code promptd clients ARGS} prints, with {@code launcher} as the launcher's path (as
   * {@code ./promptd} sets it).
   */
  static String clients(Path launcher, String... args) throws Exception {
    List<String> command = new ArrayList<>(java());
    command.add(1, "-Dpromptd.launcher=" + launcher);
    command.add("clients");
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new AssertionError("promptd clients " + String.join(" ", args) + " failed: " + out);
    }
    return out.strip();
  }

  private static List<String> java() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.promptd.cli.Main"));
    return command;
  }

  /**
   * Points a {@code ts-client.mjs} command line at promptd serving {@code library}: over stdio (the
   * client spawns it) or over HTTP (started here); returns the HTTP server's process, which the
   * caller destroys, or null for stdio.
   */
  static @org.jspecify.annotations.Nullable Process target(
      String transport, Path library, List<String> args, String... flags) throws Exception {
    if (transport.equals("stdio")) {
      args.addAll(List.of("--stdio", shell(stdioCommand(library, flags))));
      return null;
    }
    int port = Peers.freePort();
    Process server = Peers.startHttp(httpCommand(library, port, flags), port);
    args.addAll(List.of("--url", Peers.mcpUrl(port).toString()));
    return server;
  }
}
