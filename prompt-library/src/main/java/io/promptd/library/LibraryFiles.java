package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.library.internal.index.DeclaredScopes;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.internal.source.SnapshotSource;
import io.promptd.library.parse.format.FileKind;
import io.promptd.mcp.api.Stability;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A library's files held somewhere other than a folder (a database), as one snapshot: each file's
 * path relative to the library root, with {@code /} separators, and its bytes.
 * {@link LibrarySource#snapshot(LibraryFiles)} serves it;
 * {@link LibrarySource.Snapshot#replace(LibraryFiles)} pushes the next one through the same reload
 * as a file watcher's.
 *
 * @param version the snapshot's version in its store, for logs and readiness; it is not interpreted
 * @param files path to bytes; the arrays are not copied, so the caller must not change them
 *     afterwards
 * @param sha256 the SHA-256 of some or all files' bytes, in hexadecimal, by path, as a store keeps
 *     them: they stand for the content when a parsed index is matched against the files
 *     ({@link LibrarySource.Snapshot#replace(LibraryFiles, byte[])}); the library computes those
 *     not given. They are trusted: a wrong one can serve another content's parse.
 */
@Stability(Stability.Tier.STABLE)
public record LibraryFiles(long version, Map<String, byte[]> files, Map<String, String> sha256) {
  /** Checks the paths and digests and copies the maps (not the arrays), sorted by path. */
  public LibraryFiles {
    requireNonNull(files, "files");
    requireNonNull(sha256, "sha256");
    TreeMap<String, byte[]> sorted = new TreeMap<>();
    files.forEach((path, data) -> {
      requireNonNull(path, "LibraryFiles: a path is null");
      requireNonNull(data, () -> "LibraryFiles: the bytes of '" + path + "' are null");
      if (path.isEmpty()
          || path.startsWith("/")
          || path.contains("\\")
          || path.endsWith("/")
          || ("/" + path + "/").contains("/../")
          || ("/" + path + "/").contains("/./")
          || path.contains("//")) {
        throw new IllegalArgumentException(
            "LibraryFiles: '" + path + "' is not a relative path with / separators");
      }
      sorted.put(path, data);
    });
    files = Collections.unmodifiableMap(sorted);
    sha256.forEach((path, digest) -> {
      if (!sorted.containsKey(path)) {
        throw new IllegalArgumentException(
            "LibraryFiles: a digest is given for '" + path + "', which is no file");
      }
      if (digest == null
          || digest.length() != 64
          || !digest.chars().allMatch(HexFormat::isHexDigit)) {
        throw new IllegalArgumentException(
            "LibraryFiles: the digest of '" + path + "' is not 64 hexadecimal digits");
      }
    });
    sha256 = Collections.unmodifiableMap(new TreeMap<>(sha256));
  }

  /**
   * Whether a folder library scans the folder at {@code folder} (relative to its root, {@code /}
   * separators) and every folder above it: what a snapshot should hold is what lies in such
   * folders. Hidden folders are skipped except the prompt formats' own ({@code .claude/commands},
   * {@code .github/prompts} and the like) and {@code .claude/skills}; so are {@code node_modules},
   * {@code target}, {@code build} and {@code __pycache__}.
   *
   * @throws IllegalArgumentException when {@code folder} is not a relative path
   */
  public static boolean scanned(String folder) {
    requireNonNull(folder, "folder");
    Path dir = SnapshotSource.ROOT.resolve(folder).normalize();
    if (!dir.startsWith(SnapshotSource.ROOT)) {
      throw new IllegalArgumentException(
          "LibraryFiles.scanned: '" + folder + "' is not a path relative to the library root");
    }
    return SnapshotSource.entered(dir);
  }

  /**
   * Whether a library serves the file at {@code path} (relative to its root, {@code /} separators)
   * as an entry of its own — a prompt file, a resource file or a skill's {@code SKILL.md} — rather
   * than as a file entries use (a partial, an attachment, a {@code _folder.yaml}) or one it does
   * not read.
   *
   * @throws IllegalArgumentException when {@code path} is not a relative path
   */
  public static boolean entry(String path) {
    FileRole role = role(path, "entry");
    return role != null && role != FileRole.FOLDER;
  }

  /**
   * Whether a library serves the file at {@code path} (relative to its root, {@code /} separators)
   * as a prompt file: one of the prompt formats, not a resource, a skill or a folder file.
   *
   * @throws IllegalArgumentException when {@code path} is not a relative path
   */
  public static boolean prompt(String path) {
    return role(path, "prompt") == FileRole.PROMPT;
  }

  private static @Nullable FileRole role(String path, String caller) {
    requireNonNull(path, "path");
    Path file = SnapshotSource.ROOT.resolve(path).normalize();
    if (!file.startsWith(SnapshotSource.ROOT) || file.equals(SnapshotSource.ROOT)) {
      throw new IllegalArgumentException(
          "LibraryFiles." + caller + ": '" + path + "' is not a path relative to the library root");
    }
    return FileRole.of(FileKind.classify(SnapshotSource.SNAPSHOT_ROOT, file), file);
  }

  /**
   * The OAuth scopes the file at {@code path} declares when {@code data} is its content: the
   * {@code scopes} of a prompt or resource file's front matter, or of a folder file; null when it
   * declares none and so takes its folder's default (as every other file does). A declaration that
   * cannot be read gives a scope no token holds, so that whatever cannot be judged stays hidden
   * from every caller that presents one.
   *
   * @throws IllegalArgumentException when {@code path} is not a relative path
   */
  public static @Nullable Set<String> declaredScopes(String path, byte[] data) {
    requireNonNull(data, "data");
    FileRole role = role(path, "declaredScopes");
    return DeclaredScopes.of(SnapshotSource.ROOT.resolve(path).normalize(), role, data);
  }

  /** A snapshot without digests: the library computes them when it needs them. */
  public LibraryFiles(long version, Map<String, byte[]> files) {
    this(version, files, Map.of());
  }
}
