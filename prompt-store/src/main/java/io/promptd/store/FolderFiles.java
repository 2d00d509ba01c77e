package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.library.Diagnostic;
import io.promptd.library.Linter;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A folder published to the store: the files a folder library would serve or read (prompt, resource and folder files,
 * and what they attach), checked as {@code promptd check} checks them.
 */
public final class FolderFiles {
  /** The largest file published: as large as an attachment may be. */
  static final long MAX_BYTES = 10L << 20;

  private static final Set<String> SKIPPED =
      Set.of("node_modules", "target", "build", "__pycache__");

  private FolderFiles() {}

  /**
   * Publishes {@code dir} to {@code store}: the store then holds exactly its files.
   *
   * @param allowErrors publish even when {@code promptd check} finds errors (files with errors are then served as a
   *     folder library serves them: not at all)
   * @throws StoreException with {@link StoreException.Kind#REFUSED} listing each error as FILE:LINE when the files
   *     have errors and {@code allowErrors} is false; nothing is written then
   * @throws IOException when the folder cannot be read
   */
  public static Published publish(PromptStore store, Path dir, String author, boolean allowErrors)
      throws StoreException, IOException {
    requireNonNull(store, "store");
    requireNonNull(author, "author");
    return store.publish(checked(dir, allowErrors), author);
  }

  /**
   * What {@link #publish} would do with {@code dir} now, writing nothing: refused as it would be when the files have
   * errors and {@code allowErrors} is false.
   *
   * @throws StoreException with {@link StoreException.Kind#REFUSED} listing each error as FILE:LINE when the files
   *     have errors and {@code allowErrors} is false
   * @throws IOException when the folder cannot be read
   */
  public static Preview preview(PromptStore store, Path dir, boolean allowErrors)
      throws StoreException, IOException {
    requireNonNull(store, "store");
    return store.preview(checked(dir, allowErrors));
  }

  /** The files of {@code dir}, once {@code promptd check} found no error in them unless errors are allowed. */
  private static Map<String, byte[]> checked(Path dir, boolean allowErrors)
      throws StoreException, IOException {
    requireNonNull(dir, "dir");
    if (!allowErrors) {
      List<Diagnostic> errors =
          Linter.check(List.of(dir)).stream().filter(Diagnostic::isError).toList();
      if (!errors.isEmpty()) {
        throw new StoreException(
            StoreException.Kind.REFUSED,
            errors.size() + " error(s) in " + dir
                + "; nothing was published (fix them, or publish with --allow-errors):\n"
                + errors.stream().map(Diagnostic::format).collect(Collectors.joining("\n")));
      }
    }
    return read(dir);
  }

  /**
   * The files under {@code dir} by path relative to it: regular files in the folders a library scans (hidden folders
   * other than {@code .claude/commands} and {@code .github/prompts}, {@code node_modules}, {@code target},
   * {@code build} and {@code __pycache__} are skipped), hidden files left out; links are not followed.
   *
   * @throws IOException when a file cannot be read or is over 10 MiB
   */
  public static Map<String, byte[]> read(Path dir) throws IOException {
    Path root = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(root)) {
      throw new IOException("not a folder: " + dir);
    }
    Map<String, byte[]> out = new TreeMap<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
        return d.equals(root) || wanted(root.relativize(d))
            ? FileVisitResult.CONTINUE
            : FileVisitResult.SKIP_SUBTREE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        String name = String.valueOf(file.getFileName());
        if (attrs.isRegularFile() && !name.startsWith(".")) {
          String relative =
              root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
          if (attrs.size() > MAX_BYTES) {
            throw new IOException(relative + " is " + attrs.size()
                + " bytes, over the store's limit of " + MAX_BYTES);
          }
          out.put(relative, Files.readAllBytes(file));
        }
        return FileVisitResult.CONTINUE;
      }
    });
    return out;
  }

  /** Whether a folder, given relative to the root, is one a folder library scans. */
  private static boolean wanted(Path relative) {
    String parent = "";
    for (Path part : relative) {
      String n = part.toString();
      boolean ok = switch (parent) {
        case ".claude" -> n.equals("commands");
        case ".github" -> n.equals("prompts");
        default ->
          n.equals(".claude")
              || n.equals(".github")
              || (!n.startsWith(".") && !SKIPPED.contains(n));
      };
      if (!ok) {
        return false;
      }
      parent = n;
    }
    return true;
  }
}
