package io.promptd.library.parse;

import io.promptd.library.LibraryOptions;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;

/** Parses one prompt file of any format into a {@link ParseResult}; never throws for a bad file. */
public final class PromptParser {
  private PromptParser() {}

  /** Reads and parses {@code file}, which {@link FileKind#classify} recognized as {@code match}. */
  public static ParseResult parse(Root root, Path file, FileKind.Match match, LibraryOptions options) {
    return parse(root, file, match, options, null);
  }

  /**
   * Reads and parses a file found by a scan of {@code root}.
   *
   * @param folders caches which folders really lie inside the root, shared by one scan; null checks every file fully
   */
  public static ParseResult parse(Root root, Path file, FileKind.Match match, LibraryOptions options,
      @Nullable Map<Path, Boolean> folders) {
    Problems problems = new Problems(file);
    Set<Path> dependencies = new HashSet<>();
    long fingerprint = 0;
    PromptFile prompt = null;
    try {
      byte[] data = folders == null
          ? SafeFiles.read(root, file, options.maxPromptBytes(), 0, "prompt file")
          : SafeFiles.readFound(root, file, options.maxPromptBytes(), folders);
      fingerprint = fingerprint(data);
      Source source = new Source(root, file, match, SafeFiles.decodeUtf8(data));
      prompt = switch (match.kind()) {
        case NATIVE -> NativeFormat.parse(source, options, problems, dependencies);
        case CLAUDE -> ClaudeCommandFormat.parse(source, problems);
        case VSCODE -> VsCodePromptFormat.parse(source, problems);
      };
      if (prompt.parts().isEmpty()) {
        // Also what a reader sees of a file caught between truncation and rewrite: keep the last good version.
        prompt = null;
        problems.error(1, "the prompt has no text: the body is empty");
      }
    } catch (ParseException e) {
      problems.error(e);
    } catch (RuntimeException e) {
      // A bug or a library surprise must cost one file, not the whole library.
      problems.error(0, "cannot parse: " + e);
    }
    return new ParseResult(file, prompt, problems.all(), dependencies, fingerprint);
  }

  private static long fingerprint(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    return crc.getValue() ^ ((long) data.length << 32);
  }
}
