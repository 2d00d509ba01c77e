package io.promptd.library;

import io.promptd.library.parse.FileKind;
import io.promptd.library.parse.ResourceParser;
import io.promptd.library.parse.Root;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Finds prompt files, resource files ({@code NAME.resource.md}) and the folders worth watching under a root. Hidden folders are skipped except
 * {@code .claude/commands} and {@code .github/prompts}; so are {@code node_modules} and {@code target}. Links to
 * folders are not followed.
 */
final class Scanner {
  private static final Set<String> SKIPPED = Set.of("node_modules", "target", "build", "__pycache__");

  private Scanner() {}

  /**
   * A prompt file or resource file found by a scan.
   *
   * @param root its root
   * @param file the file
   * @param match a prompt file's format and name segments; null for a resource file
   * @param stamp its size and modification time when scanned
   */
  record Found(Root root, Path file, FileKind.@Nullable Match match, Stamp stamp) {}

  /** Whether the folder {@code dir} under {@code root} is scanned and watched. */
  static boolean wanted(Root root, Path dir) {
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
    if (p.equals(".claude")) {
      return n.equals("commands");
    }
    if (p.equals(".github")) {
      return n.equals("prompts");
    }
    return n.equals(".claude") || n.equals(".github") || (!n.startsWith(".") && !SKIPPED.contains(n));
  }

  /**
   * Walks {@code start} (a root or a folder under it), giving prompt and resource files to {@code files} and folders
   * to {@code dirs}.
   */
  static void walk(Root root, Path start, Consumer<Found> files, Consumer<Path> dirs) throws IOException {
    if (!Files.isDirectory(start) || !wanted(root, start)) {
      return;
    }
    Files.walkFileTree(start, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        if (!wanted(root, dir)) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        dirs.accept(dir);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
        // Regular files and links only: opening a FIFO or a device could block or never end.
        if (attrs.isRegularFile() || attrs.isSymbolicLink()) {
          FileKind.Match match = FileKind.classify(root, file);
          if (match != null || ResourceParser.isResourceFile(file)) {
            files.accept(new Found(root, file, match, Stamp.of(attrs)));
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
}
