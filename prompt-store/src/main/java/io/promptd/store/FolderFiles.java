package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.library.Diagnostic;
import io.promptd.library.LibraryFiles;
import io.promptd.library.Linter;
import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A folder published to the store: the files a folder library would serve or read (prompt, resource
 * and folder files, and what they attach), checked as {@code promptd check} checks them.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class FolderFiles {
  /** The largest file published: as large as an attachment may be. */
  static final long MAX_BYTES = 10L << 20;

  private FolderFiles() {}

  /**
   * Publishes {@code dir} to {@code store}: the store then holds exactly its files.
   *
   * @param allowErrors publish even when {@code promptd check} finds errors (files with errors are
   *     then served as a folder library serves them: not at all)
   * @throws StoreException with {@link StoreException.Kind#REFUSED} listing each error as FILE:LINE
   *     when the files have errors and {@code allowErrors} is false; nothing is written then
   * @throws IOException when the folder cannot be read
   */
  public static Published publish(PromptStore store, Path dir, String author, boolean allowErrors)
      throws StoreException, IOException {
    return publish(store, dir, author, allowErrors, null);
  }

  /**
   * Publishes {@code dir} as {@link #publish(PromptStore, Path, String, boolean)} does and, in the
   * same transaction, points {@code label} at every file the store then holds (see
   * {@link PromptStore#publish(Map, String, String)}); a refused publish moves nothing.
   *
   * @param label a label's name, or null to move none
   */
  public static Published publish(
      PromptStore store, Path dir, String author, boolean allowErrors, @Nullable String label)
      throws StoreException, IOException {
    requireNonNull(store, "store");
    requireNonNull(author, "author");
    if (label != null) {
      StoreLabels.check(label);
    }
    return store.publish(checked(dir, allowErrors), author, label);
  }

  /**
   * What {@link #publish} would do with {@code dir} now, writing nothing: refused as it would be
   * when the files have errors and {@code allowErrors} is false.
   *
   * @throws StoreException with {@link StoreException.Kind#REFUSED} listing each error as FILE:LINE
   *     when the files have errors and {@code allowErrors} is false
   * @throws IOException when the folder cannot be read
   */
  public static Preview preview(PromptStore store, Path dir, boolean allowErrors)
      throws StoreException, IOException {
    requireNonNull(store, "store");
    return store.preview(checked(dir, allowErrors));
  }

  /**
   * The files of {@code dir}, once {@code promptd check} found no error in them unless errors are
   * allowed.
   */
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
   * The files under {@code dir} by path relative to it: regular files in the folders a folder
   * library scans (see {@link LibraryFiles#scanned}: hidden folders other than the prompt formats'
   * and {@code .claude/skills}, {@code node_modules}, {@code target}, {@code build} and
   * {@code __pycache__} are skipped). Hidden files are left out, except in a skill's folder (one
   * holding a {@code SKILL.md}, and the folders below it): a skill serves every file it holds.
   * Links are not followed, except a link in a skill's folder to a regular file inside {@code dir},
   * which a folder library serves as the file it leads to.
   *
   * @throws IOException when a file cannot be read or is over 10 MiB
   */
  public static Map<String, byte[]> read(Path dir) throws IOException {
    Path root = dir.toAbsolutePath().normalize();
    if (!Files.isDirectory(root)) {
      throw new IOException("not a folder: " + dir);
    }
    Path real = root.toRealPath();
    Map<String, byte[]> out = new TreeMap<>();
    Files.walkFileTree(root, new SimpleFileVisitor<>() {
      // The outermost skill folder being walked, or null outside skills.
      private @Nullable Path skill;

      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
        if (!d.equals(root) && !LibraryFiles.scanned(relative(d))) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        if (skill == null
            && !d.equals(root)
            && Files.isRegularFile(d.resolve("SKILL.md"), LinkOption.NOFOLLOW_LINKS)) {
          skill = d;
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path d, @Nullable IOException e)
          throws IOException {
        if (e != null) {
          throw e;
        }
        if (d.equals(skill)) {
          skill = null;
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        boolean hidden = String.valueOf(file.getFileName()).startsWith(".");
        if (attrs.isRegularFile() && (!hidden || skill != null)) {
          add(file, file, attrs.size());
        } else if (attrs.isSymbolicLink() && skill != null) {
          Path target = file.toRealPath();
          if (target.startsWith(real) && Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
            add(file, target, Files.size(target));
          }
        }
        return FileVisitResult.CONTINUE;
      }

      private void add(Path file, Path content, long size) throws IOException {
        String relative = relative(file);
        if (size > MAX_BYTES) {
          throw new IOException(
              relative + " is " + size + " bytes, over the store's limit of " + MAX_BYTES);
        }
        out.put(relative, Files.readAllBytes(content));
      }

      private String relative(Path p) {
        return root.relativize(p).toString().replace(p.getFileSystem().getSeparator(), "/");
      }
    });
    return out;
  }
}
