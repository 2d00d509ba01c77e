package io.promptd.library.parse;

import io.promptd.library.LibraryOptions;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.zip.CRC32C;

/** Parses one prompt file of any format into a {@link ParseResult}; never throws for a bad file. */
public final class PromptParser {
  private PromptParser() {}

  /** Reads and parses {@code file}, which {@link FileKind#classify} recognized as {@code match}. */
  public static ParseResult parse(Root root, Path file, FileKind.Match match, LibraryOptions options) {
    Problems problems = new Problems(file);
    Set<Path> dependencies = new HashSet<>();
    long fingerprint = 0;
    PromptFile prompt = null;
    try {
      byte[] data = SafeFiles.read(root, file, options.maxPromptBytes(), 0, "prompt file");
      fingerprint = fingerprint(data);
      Source source = new Source(root, file, match, SafeFiles.decodeUtf8(data));
      prompt = switch (match.kind()) {
        case NATIVE -> NativeFormat.parse(source, options, problems, dependencies);
        case CLAUDE -> ClaudeCommandFormat.parse(source, problems);
        case VSCODE -> VsCodePromptFormat.parse(source, problems);
      };
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
