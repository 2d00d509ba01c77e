package io.promptd.library.internal.index;

import io.promptd.library.internal.skills.SkillFolder;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.SnapshotSource;
import io.promptd.library.internal.source.Stamp;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The version of each served prompt, for usage counts: the first 12 hex digits of the SHA-256 of
 * the file it is served from (a skill's {@code SKILL.md}). Which file serves which name is noted on
 * every load and reload, under the library's lock and without I/O; the digest is looked up without
 * that lock, so a request never waits for a reload. A snapshot (the store, Git) has the digest in
 * each file's stamp already; a folder's file is read and hashed once per change, on the first use
 * after it.
 */
public final class PromptVersions {
  /** How long a digest is: 48 bits, plenty to tell a file's versions apart. */
  static final int HEX_DIGITS = 12;

  private static final long MAX_READ = 64L << 20;

  /** A served prompt's file as it was when loaded. */
  record ServedFile(Root root, Path file, Stamp stamp) {}

  private final FileSource source;
  private final boolean snapshot;
  /**
   * Replaced (not cleared) by a full load, sized for its prompts: growing it a doubling at a time
   * cost a restart of 100,000 prompts ~6 % of its samples.
   */
  private volatile Map<String, ServedFile> files = new ConcurrentHashMap<>();

  private final Map<ServedFile, String> digests = new ConcurrentHashMap<>();

  public PromptVersions(FileSource source) {
    this.source = source;
    this.snapshot = source instanceof SnapshotSource;
  }

  /** Notes that {@code name} is served from {@code file}, or (null) no longer served. */
  void put(String name, @Nullable ServedFile file) {
    ServedFile old = file == null ? files.remove(name) : files.put(name, file);
    if (old != null && !old.equals(file)) {
      digests.remove(old);
    }
  }

  /**
   * Notes which file serves {@code name} now: its prompt file's winner in {@code prompts}, else the
   * {@code SKILL.md} of the skill offered as that prompt; none when neither serves it. Under the
   * library's lock, after the catalog changed.
   */
  public void note(String name, LibraryIndex prompts, Map<String, SkillFolder> skillsServed) {
    LibraryIndex.Entry entry = prompts.winner(name);
    if (entry != null && entry.definition() != null) {
      put(name, new ServedFile(entry.root(), entry.file(), entry.stamp()));
      return;
    }
    SkillFolder skill = skillsServed.get(name);
    Stamp stamp = skill == null ? null : source.stamp(skill.file());
    Root root = skill == null ? null : prompts.rootOf(skill.file());
    put(
        name,
        skill == null || stamp == null || root == null
            ? null
            : new ServedFile(root, skill.file(), stamp));
  }

  /** Forgets every name: a full load of about {@code expected} prompts follows. */
  public void clear(int expected) {
    files = new ConcurrentHashMap<>(expected);
    digests.clear();
  }

  /**
   * The version of the prompt served as {@code name}, or empty when none is (or its file cannot be
   * read).
   */
  public Optional<String> of(String name) {
    ServedFile file = files.get(name);
    if (file == null) {
      return Optional.empty();
    }
    if (snapshot) {
      // SnapshotSource stamps a file with the first 60 bits (15 hex digits) of its SHA-256.
      return Optional.of(String.format("%015x", file.stamp().modified()).substring(0, HEX_DIGITS));
    }
    String digest = digests.get(file);
    if (digest == null) {
      try {
        digest = sha256(source.read(file.root(), file.file(), MAX_READ, 0, "prompt file"));
      } catch (ParseException e) {
        return Optional.empty();
      }
      digests.put(file, digest);
    }
    return Optional.of(digest);
  }

  public static String sha256(byte[] data) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(data))
          .substring(0, HEX_DIGITS);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
