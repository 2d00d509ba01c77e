package io.promptd.library.internal.source;

import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Where a library's files come from: list them with a stamp, read their bytes, watch for changes. A
 * folder on disk ({@link FolderSource}) is the only source today; parsing never does I/O of its
 * own, so another source (a database) needs only this interface.
 */
public interface FileSource extends FileAccess {
  /** The roots, in precedence order. */
  List<Root> roots();

  /**
   * Lists the prompt and resource files at or under {@code start}, which is a root or a folder
   * under it.
   *
   * @param found receives each file with its stamp
   * @throws IOException when the listing fails as a whole
   */
  void list(Root root, Path start, Consumer<FolderWalker.Found> found) throws IOException;

  /**
   * Lists every file at or under {@code start}, a folder of {@code root}, whatever its name, in the
   * folders a listing enters: a skill's files are all served.
   *
   * @throws IOException when the listing fails as a whole
   */
  void listAll(Root root, Path start, Consumer<Path> found) throws IOException;

  /**
   * The bytes of a file just listed, at most {@code limit}; cheaper than {@link #read} because the
   * listing already vouched for its folder.
   *
   * @param folders a cache shared by one listing, for the source's own use
   */
  byte[] readListed(FolderWalker.Found file, long limit, Map<Path, Boolean> folders)
      throws ParseException;

  /**
   * {@code dir}, a folder of {@code root}, as a root of its own: a {@link #read} through it refuses
   * a file that lies outside {@code dir} once links are resolved (a skill's prompt embeds only the
   * skill's own files).
   *
   * @throws IOException when {@code dir} cannot be resolved
   */
  Root narrowed(Root root, Path dir) throws IOException;

  /** The stamp of {@code path} now, or null when it does not exist (or is not readable). */
  @Nullable
  Stamp stamp(Path path);

  /** Whether {@code path} is a folder (links not followed). */
  boolean isFolder(Path path);

  /** Whether anything is at {@code path} (links not followed). */
  boolean present(Path path);

  /**
   * Starts telling {@code onChange} about changed paths, in batches.
   *
   * @param seen receives every file listed while the watch is set up, so that the caller can catch
   *     up with changes made before it
   * @return stops watching
   * @throws IOException when the watch cannot be set up
   */
  AutoCloseable watch(Consumer<Set<Path>> onChange, Consumer<FolderWalker.Found> seen)
      throws IOException;

  /**
   * Whether {@code file} can be served as an attachment: it exists and lies inside {@code root}.
   */
  boolean servable(Root root, Path file);
}
