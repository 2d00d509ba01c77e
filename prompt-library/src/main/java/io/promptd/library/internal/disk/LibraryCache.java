package io.promptd.library.internal.disk;

import io.promptd.library.LibraryOptions;
import io.promptd.library.internal.source.FileSource;
import io.promptd.library.internal.source.Stamp;
import io.promptd.library.parse.text.Root;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.zip.CRC32C;
import java.util.zip.CheckedOutputStream;
import org.jspecify.annotations.Nullable;

/**
 * The on-disk index of parsed prompt files, so that a restart of an unchanged library reads no
 * prompt file: an entry is used only while its file's path, size and modification time (and those
 * of its partials and attachments) are what they were when it was written. It is only a cache. The
 * file holds a format version and the roots and limits it was made for, and ends with a CRC-32C of
 * everything before it; a missing, foreign, truncated or corrupted index is ignored and the files
 * are read. It is written to a temporary file and renamed into place, so a reader never sees half
 * of one.
 */
public final class LibraryCache {
  private static final System.Logger LOG = System.getLogger("io.promptd.library");
  /** "PDIX". */
  public static final int MAGIC = 0x50444958;
  /**
   * Bumped whenever the layout of {@link IndexFormat} changes, or what parsing a file produces (4:
   * prompts carry their arguments' rules in {@code _meta}; an index of 3 would serve unchanged
   * files without them; 5: prompts carry their form settings in {@code _meta}, which form-first
   * listings read without parsing; 7: each prompt's name, then its listing's length, so that a
   * restart keeps the listing's bytes undecoded).
   */
  public static final int FORMAT = 7;

  /** The folder holding index files, or null for none. */
  private final @Nullable Path directory;

  private final String key;
  private final int minimumFiles;
  /** An index handed over in memory (a store's), read instead of the file. */
  private final byte @Nullable [] given;

  /**
   * The index file, named by a hash of {@link #key}, made when first needed: hashing loads the
   * JDK's security providers (~60 classes), which a start serving a small library never needs.
   */
  private volatile @Nullable Path file;

  private LibraryCache(
      @Nullable Path directory, String key, int minimumFiles, byte @Nullable [] given) {
    this.directory = directory;
    this.key = key;
    this.minimumFiles = minimumFiles;
    this.given = given;
  }

  /**
   * The index for {@code roots} read with {@code options}: one file per set of roots and limits.
   */
  public static LibraryCache of(List<Root> roots, LibraryOptions options) {
    StringBuilder key = new StringBuilder("roots");
    for (Root root : roots) {
      key.append('\n').append(root.real());
    }
    key.append("\nlimits ")
        .append(options.maxPromptBytes())
        .append(' ')
        .append(options.maxAttachmentBytes())
        .append(' ')
        .append(options.maxFiles());
    return new LibraryCache(
        options.cacheDirectory(), key.toString(), options.cacheMinimumFiles(), null);
  }

  /**
   * This index's roots and limits, read from {@code data} instead of a file; nothing is written to
   * a file.
   */
  public LibraryCache reading(byte[] data) {
    return new LibraryCache(null, key, minimumFiles, data);
  }

  /** Where the index lives, or null when there is none. */
  @Nullable
  public Path file() {
    Path dir = directory;
    if (dir == null) {
      return null;
    }
    Path f = file;
    if (f == null) {
      f = dir.resolve(hash(key) + ".idx");
      file = f;
    }
    return f;
  }

  /** Whether {@link #write} writes an index for a library of {@code files} prompt files. */
  public boolean writes(int files) {
    return directory != null && files >= minimumFiles;
  }

  /**
   * Whether a load that has listed {@code promptFiles} prompt files so far should read the index:
   * one handed over always, a file once the library has as many prompt files as an index is written
   * for (a smaller one could only have an index from when it was larger, and reads its few files
   * faster than the index's name is computed).
   */
  public boolean worthReading(int promptFiles) {
    return given != null || (directory != null && promptFiles >= minimumFiles);
  }

  /**
   * The entries of the index by file path, iterated in the index's order (by prompt name when this
   * version wrote it); empty when there is no usable index.
   */
  public Map<String, IndexFormat.Cached> read() {
    byte[] data = given;
    if (data != null) {
      try {
        return decode(data);
      } catch (IOException | RuntimeException e) {
        LOG.log(
            Level.INFO,
            "ignoring the library index handed over (" + data.length + " bytes): "
                + e.getMessage());
        return Map.of();
      }
    }
    Path f = file();
    if (f == null) {
      return Map.of();
    }
    try {
      data = Files.readAllBytes(f);
    } catch (NoSuchFileException e) {
      return Map.of();
    } catch (IOException e) {
      LOG.log(Level.DEBUG, "cannot read the library index " + f + ": " + e.getMessage());
      return Map.of();
    }
    try {
      return decode(data);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.INFO, "ignoring the library index " + f + ": " + e.getMessage());
      return Map.of();
    }
  }

  private Map<String, IndexFormat.Cached> decode(byte[] data) throws IOException {
    if (data.length < Long.BYTES + 2 * Integer.BYTES) {
      throw new IOException("truncated");
    }
    int body = data.length - Long.BYTES;
    if (crc(data, body) != ByteBuffer.wrap(data, body, Long.BYTES).getLong()) {
      throw new IOException("checksum mismatch (truncated or corrupted)");
    }
    ByteBuffer in = ByteBuffer.wrap(data, 0, body);
    if (in.getInt() != MAGIC) {
      throw new IOException("not a promptd library index");
    }
    int format = in.getInt();
    if (format != FORMAT) {
      throw new IOException("format " + format + ", this promptd reads " + FORMAT);
    }
    byte[] expected = key.getBytes(StandardCharsets.UTF_8);
    int length = in.getInt();
    if (length != expected.length
        || !Arrays.equals(data, in.position(), in.position() + length, expected, 0, length)) {
      throw new IOException("made for other roots or limits");
    }
    in.position(in.position() + length);
    // The count is written after the entries (they are streamed, not held), so it is read first
    // from the end, to size the map.
    int count = ByteBuffer.wrap(data, body - Integer.BYTES, Integer.BYTES).getInt();
    if (count < 0 || count > in.remaining()) {
      throw new IOException("invalid entry count " + count);
    }
    Map<String, IndexFormat.Cached> entries = new LinkedHashMap<>(Math.max(16, count * 4 / 3 + 1));
    while (in.remaining() > Integer.BYTES) {
      byte marker = in.get();
      if (marker != 1) {
        throw new IOException("invalid entry marker " + marker);
      }
      IndexFormat.Cached c = IndexFormat.read(in);
      entries.put(c.file(), c);
    }
    if (in.remaining() != Integer.BYTES || entries.size() != count) {
      throw new IOException("entries do not match their count " + count);
    }
    return entries;
  }

  /**
   * Writes the index of {@code entries} (those whose file and dependencies are settled and that
   * serve a prompt), in place of the old one, when there are at least the minimum number of files.
   *
   * @param entries in the order to write them: by prompt name, which lets a restart skip sorting
   * @param files how many prompt files the library has
   * @param cacheable the index entry for an entry, or null when it must be read again next time
   *     anyway
   */
  public <E> void write(
      Collection<E> entries, int files, Function<E, IndexFormat.@Nullable Cached> cacheable) {
    if (!writes(files)) {
      return;
    }
    Path f = Objects.requireNonNull(file());
    long start = System.nanoTime();
    Path tmp = null;
    try {
      Files.createDirectories(f.getParent());
      tmp = Files.createTempFile(f.getParent(), f.getFileName().toString(), ".tmp");
      // Streamed to the file with the checksum computed on the way: a large library's index is
      // tens of megabytes, and holding it in memory (then copying it to add the checksum) would
      // raise the heap right after a load. Each entry is made and written in turn, not all made
      // first, for the same reason.
      int written;
      try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(tmp), 64 * 1024)) {
        written = writeTo(file, entries, cacheable);
      }
      Files.move(tmp, f, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      long millis = (System.nanoTime() - start) / 1_000_000;
      LOG.log(
          Level.DEBUG,
          () -> "wrote the library index " + f + " (" + written + " files) in " + millis + " ms");
    } catch (IOException e) {
      LOG.log(Level.INFO, "cannot write the library index " + f + ": " + e.getMessage());
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // Nothing more to do; the next write uses another temporary name.
        }
      }
    }
  }

  /**
   * The index of {@code entries} in memory, whatever their number: for a store to keep beside its
   * files; null when it would hold exactly {@code restored} entries, all of which came from an
   * index already.
   */
  public <E> byte @Nullable [] encode(
      Collection<E> entries, Function<E, IndexFormat.@Nullable Cached> cacheable, int restored) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
    int written;
    try {
      written = writeTo(out, entries, cacheable);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return written == restored ? null : out.toByteArray();
  }

  /**
   * The layout: magic, format, key, each entry that can be kept after a 1 byte, their count, and a
   * CRC-32C of all that, outside the checksum; returns the count.
   */
  private <E> int writeTo(
      OutputStream sink, Collection<E> entries, Function<E, IndexFormat.@Nullable Cached> cacheable)
      throws IOException {
    CRC32C crc = new CRC32C();
    DataOutputStream out = new DataOutputStream(new CheckedOutputStream(sink, crc));
    out.writeInt(MAGIC);
    out.writeInt(FORMAT);
    byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
    out.writeInt(keyBytes.length);
    out.write(keyBytes);
    int count = 0;
    for (E entry : entries) {
      IndexFormat.Cached c = cacheable.apply(entry);
      if (c != null) {
        out.writeByte(1);
        IndexFormat.write(out, c);
        count++;
      }
    }
    out.writeInt(count);
    out.flush();
    sink.write(ByteBuffer.allocate(Long.BYTES).putLong(crc.getValue()).array());
    return count;
  }

  /** Whether the dependencies of {@code c} are as they were when it was written. */
  public static boolean dependenciesUnchanged(IndexFormat.Cached c, FileSource source) {
    List<String> dependencies = c.dependencyPaths();
    for (int i = 0; i < dependencies.size(); i++) {
      Stamp now = source.stamp(Path.of(dependencies.get(i)));
      long[] then = c.dependencyStamps().get(i);
      boolean same =
          now == null ? then[0] == -1 : now.size() == then[0] && now.modified() == then[1];
      if (!same) {
        return false;
      }
    }
    return true;
  }

  private static long crc(byte[] data, int length) {
    CRC32C crc = new CRC32C();
    crc.update(data, 0, length);
    return crc.getValue();
  }

  private static String hash(String key) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
