package io.promptd.library.internal.source;

import io.promptd.library.LibraryOptions;
import io.promptd.library.parse.AttachmentRefs;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** Folders on disk as a {@link FileSource}: nothing outside a root is ever read. */
public final class FolderSource implements FileSource {
  private final List<Root> roots;
  private final LibraryOptions options;

  public FolderSource(List<Root> roots, LibraryOptions options) {
    this.roots = List.copyOf(roots);
    this.options = options;
  }

  @Override
  public List<Root> roots() {
    return roots;
  }

  @Override
  public void list(Root root, Path start, Consumer<FolderWalker.Found> found) throws IOException {
    FolderWalker.walk(root, start, found, dir -> {});
  }

  @Override
  public void listAll(Root root, Path start, Consumer<Path> found) throws IOException {
    FolderWalker.walkAll(root, start, found);
  }

  @Override
  public byte[] readListed(FolderWalker.Found file, long limit, Map<Path, Boolean> folders)
      throws ParseException {
    return SafeFiles.readFound(file.root(), file.file(), limit, folders);
  }

  @Override
  public byte[] read(Root root, Path file, long limit, int line, String what)
      throws ParseException {
    return SafeFiles.read(root, file, limit, line, what);
  }

  @Override
  public Root narrowed(Root root, Path dir) throws IOException {
    return new Root(dir.normalize(), dir.toRealPath(), root.index());
  }

  @Override
  public boolean exists(Path file) {
    return Files.exists(file);
  }

  @Override
  public @Nullable Stamp stamp(Path path) {
    return Stamp.of(path);
  }

  @Override
  public boolean isFolder(Path path) {
    return Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public boolean present(Path path) {
    return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public AutoCloseable watch(Consumer<Set<Path>> onChange, Consumer<FolderWalker.Found> seen)
      throws IOException {
    return Watcher.start(roots, options.debounce(), onChange, seen);
  }

  @Override
  public boolean servable(Root root, Path file) {
    return AttachmentRefs.servable(root, file);
  }
}
