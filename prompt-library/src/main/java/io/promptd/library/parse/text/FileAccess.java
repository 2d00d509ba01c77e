package io.promptd.library.parse.text;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How parsing reads the other files a file names — partials, attachments, icons, a resource's
 * {@code file:} — so that the parsers do no I/O of their own: the library's source decides where
 * bytes come from (today a folder).
 */
public interface FileAccess {
  /** Files on disk, read with the checks of {@link SafeFiles#read}. */
  FileAccess FOLDER = new FileAccess() {
    @Override
    public byte[] read(Root root, Path file, long limit, int line, String what)
        throws ParseException {
      return SafeFiles.read(root, file, limit, line, what);
    }

    @Override
    public boolean exists(Path file) {
      return Files.exists(file);
    }
  };

  /**
   * The bytes of {@code file}, which must lie inside {@code root} and hold at most {@code limit}
   * bytes.
   *
   * @param line the line that names it, for the error
   * @param what what it is, for the error, e.g. {@code "partial"}
   * @throws ParseException when it is missing, too big, outside the root or unreadable
   */
  byte[] read(Root root, Path file, long limit, int line, String what) throws ParseException;

  /** Whether {@code file} exists. */
  boolean exists(Path file);
}
