package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end with exactly the environment given, stdin empty, and a deadline. */
final class Processes {
  private Processes() {}

  record Result(int status, String out, String err) {}

  static Result run(List<String> command, Map<String, String> env, Path in, Duration limit)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("process-out", ".txt");
    Path err = Files.createTempFile("process-err", ".txt");
    try {
      ProcessBuilder pb = new ProcessBuilder(command)
          .directory(in.toFile())
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      pb.environment().clear();
      pb.environment().putAll(env);
      Process p = pb.start();
      if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("did not finish in " + limit + ": " + command);
      }
      return new Result(p.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
