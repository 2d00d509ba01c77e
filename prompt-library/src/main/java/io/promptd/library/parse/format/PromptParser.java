package io.promptd.library.parse.format;

import io.promptd.library.LibraryOptions;
import io.promptd.library.parse.ParseResult;
import io.promptd.library.parse.Parsing;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Parses one prompt file of any format into a {@link ParseResult}; never throws for a bad file. It
 * is given the file's bytes and reads the files they name (partials, attachments, icons) through a
 * {@link FileAccess}: parsing does no I/O of its own. A file with any error (the very diagnostics
 * {@code promptd check} reports) gives no prompt, so that it is not served: the library keeps its
 * last good version, or lists none.
 */
public final class PromptParser {
  private PromptParser() {}

  /**
   * Parses the bytes of {@code file}, which {@link FileKind#classify} recognized as {@code match}.
   *
   * @param files reads the files the prompt names
   */
  public static ParseResult parse(
      Root root,
      Path file,
      FileKind.Match match,
      byte[] data,
      LibraryOptions options,
      FileAccess files) {
    Problems problems = new Problems(file);
    Set<Path> dependencies = new HashSet<>();
    Set<Path> attached = new LinkedHashSet<>();
    PromptFile prompt = null;
    try {
      Source source = new Source(root, file, match, SafeFiles.decodeUtf8(data));
      prompt = match
          .format()
          .parse(source, new Parsing(options, problems, dependencies, attached, files));
      if (prompt == null || problems.hasErrors()) {
        // Any error promptd check reports stops the file: a template naming an undeclared
        // argument would render as empty text. The errors are recorded, each with its line.
        prompt = null;
      } else if (prompt.parts().isEmpty()) {
        // Also what a reader sees of a file caught between truncation and rewrite: keep the last
        // good version.
        prompt = null;
        problems.error(1, "the prompt has no text: the body is empty");
      }
    } catch (ParseException e) {
      problems.error(e);
    } catch (StackOverflowError e) {
      // Some structure of the file (front matter, template, a format's own syntax) is nested deeper
      // than a reader recursing over it can go: that file's fault, not the server's, and the thread
      // reading it lives on.
      problems.error(1, "cannot parse this file: it is nested too deeply to be read");
    } catch (RuntimeException | Error e) {
      // A bug or a library surprise must cost one file, not the whole library, nor the thread that
      // reloads it; the diagnostic reaches clients, so it names no Java internals
      // (PromptFileFuzzTest checks), and the details go to the server log.
      System.getLogger("io.promptd.library")
          .log(System.Logger.Level.WARNING, "parsing " + file + " failed", e);
      problems.error(
          1, "cannot parse this file: an internal error (the server log has the details)");
    }
    return new ParseResult(file, prompt, problems.all(), dependencies, attached, fingerprint(data));
  }

  /** The result for a file that could not be read at all. */
  public static ParseResult unreadable(Path file, ParseException e) {
    Problems problems = new Problems(file);
    problems.error(e);
    return new ParseResult(file, null, problems.all(), Set.of(), Set.of(), 0);
  }

  private static long fingerprint(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    return crc.getValue() ^ ((long) data.length << 32);
  }
}
