package io.promptd.library.internal.source;

import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.text.Root;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Finds the library files under a root — prompt files, resource files ({@code NAME.resource.md})
 * and folder files ({@code _folder.yaml}), see {@link FileRole} — and the folders worth watching.
 * Hidden folders are skipped except the formats' folder pairs
 * ({@link io.promptd.library.parse.format.PromptFormat#home()}: {@code .claude/commands},
 * {@code .github/prompts}, {@code .codex/prompts}, {@code .cursor/commands},
 * {@code .gemini/commands}) and {@code .claude/skills}; so are {@code node_modules},
 * {@code target}, {@code build} and {@code __pycache__}. Links to folders are not followed.
 */
public final class FolderWalker {
  private static final Set<String> SKIPPED =
      Set.of("node_modules", "target", "build", "__pycache__");

  private FolderWalker() {}

  /**
   * A library file found by a listing: a prompt file, a resource file or a folder file (see
   * {@link FileRole}).
   *
   * @param root its root
   * @param file the file
   * @param role what the file is for
   * @param match a prompt file's format and name segments; null for a resource file or a folder
   *     file
   * @param stamp its size and modification time when scanned
   */
  public record Found(
      Root root, Path file, FileRole role, FileKind.@Nullable Match match, Stamp stamp) {
    /**
     * The listed file {@code file}, or null when the library does not read it (it has no
     * {@link FileRole}).
     */
    static @Nullable Found of(Root root, Path file, FileKind.@Nullable Match match, Stamp stamp) {
      FileRole role = FileRole.of(match, file);
      return role == null ? null : new Found(root, file, role, match, stamp);
    }
  }

  /** Whether the folder {@code dir} under {@code root} is scanned and watched. */
  public static boolean wanted(Root root, Path dir) {
    if (dir.equals(root.path())) {
      return true;
    }
    Path name = dir.getFileName();
    Path parent = dir.getParent();
    if (name == null || parent == null) {
      return false;
    }
    String n = name.toString();
    String p = parent.getFileName() == null ? "" : parent.getFileName().toString();
    if (FileKind.formatParent(p)) {
      return FileKind.formatFolder(p, n) || (p.equals(".claude") && n.equals("skills"));
    }
    return FileKind.formatParent(n) || (!n.startsWith(".") && !SKIPPED.contains(n));
  }

  /**
   * Walks {@code start} (a root or a folder under it), giving prompt and resource files to
   * {@code files} and folders to {@code dirs}.
   */
  static void walk(Root root, Path start, Consumer<Found> files, Consumer<Path> dirs)
      throws IOException {
    if (!Files.isDirectory(start) || !wanted(root, start)) {
      return;
    }
    String separator = start.getFileSystem().getSeparator();
    // The folders being walked, innermost first: a file is classified from its name and its
    // folder's segments.
    Deque<FileKind.Folder> folders = new ArrayDeque<>();
    Files.walkFileTree(start, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        if (!wanted(root, dir)) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        FileKind.Folder parent = folders.peek();
        folders.push(
            parent == null ? FileKind.Folder.of(root, dir) : parent.child(name(dir, separator)));
        dirs.accept(dir);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, @Nullable IOException e) {
        folders.pop();
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        // Regular files and links only: opening a FIFO or a device could block or never end.
        if (attrs.isRegularFile() || attrs.isSymbolicLink()) {
          FileKind.Folder folder = folders.peek();
          FileKind.Match match = folder == null
              ? FileKind.classify(root, file)
              : FileKind.classify(folder, name(file, separator));
          Found found = Found.of(root, file, match, Stamp.of(attrs));
          if (found != null) {
            files.accept(found);
          }
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        // An unreadable folder costs its own files only; they are reported when read.
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /**
   * Walks {@code start} (a folder under {@code root}), giving every regular file or link in a
   * wanted folder to {@code files}.
   */
  static void walkAll(Root root, Path start, Consumer<Path> files) throws IOException {
    if (!Files.isDirectory(start)) {
      return;
    }
    Files.walkFileTree(start, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        return wanted(root, dir) ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        if (attrs.isRegularFile() || attrs.isSymbolicLink()) {
          files.accept(file);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        // Reported when the file is read.
        files.accept(file);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  /**
   * The last segment of {@code path}, taken from its text: the listing needs that text anyway, a
   * Path it does not.
   */
  private static String name(Path path, String separator) {
    String text = path.toString();
    return text.substring(text.lastIndexOf(separator) + 1);
  }
}
