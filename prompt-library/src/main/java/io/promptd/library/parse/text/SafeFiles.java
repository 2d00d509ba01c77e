package io.promptd.library.parse.text;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Reads files for the library without ever leaving its root: references are resolved and checked
 * before anything is opened, symbolic links are followed only to check where they lead, and sizes
 * are capped before reading.
 */
public final class SafeFiles {
  // Drive letters, UNC paths and home-relative paths are all absolute in someone's eyes; refuse
  // them everywhere.
  private static final Pattern ABSOLUTE = Pattern.compile("^([/\\\\~]|[A-Za-z]:).*");

  private SafeFiles() {}

  /**
   * Resolves {@code reference}, written in {@code from} at {@code line}, against the folder of
   * {@code from}.
   *
   * @throws ParseException if the reference is absolute or climbs out of the root
   */
  public static Path resolve(Root root, Path from, String reference, int line)
      throws ParseException {
    if (reference.isBlank()) {
      throw new ParseException(line, "empty file reference");
    }
    if (ABSOLUTE.matcher(reference).matches()) {
      throw new ParseException(
          line,
          "absolute path '" + reference + "' is not allowed; use a path relative to the file");
    }
    Path base = from.getParent() == null ? root.path() : from.getParent();
    Path resolved;
    try {
      resolved = base.resolve(reference).normalize();
    } catch (InvalidPathException e) {
      throw new ParseException(line, "invalid path '" + reference + "'");
    }
    if (!root.contains(resolved)) {
      throw new ParseException(line, "path '" + reference + "' resolves outside the library root");
    }
    return resolved;
  }

  /**
   * Reads {@code file}, which must lie inside {@code root} even after links are resolved and be at
   * most {@code limit} bytes.
   *
   * @param what names the file in messages, e.g. {@code "image"}
   */
  public static byte[] read(Root root, Path file, long limit, int line, String what)
      throws ParseException {
    String shown = root.relative(file);
    Path real;
    try {
      real = file.toRealPath();
    } catch (NoSuchFileException e) {
      Path other = otherForm(root, file);
      if (other != null) {
        return read(root, other, limit, line, what);
      }
      throw new ParseException(line, what + " '" + shown + "' does not exist");
    } catch (IOException e) {
      throw new ParseException(line, what + " '" + shown + "' cannot be read: " + reason(e));
    }
    if (!real.startsWith(root.real())) {
      throw new ParseException(
          line, what + " '" + shown + "' is a link that leads outside the library root");
    }
    try {
      if (!Files.isRegularFile(real, LinkOption.NOFOLLOW_LINKS)) {
        throw new ParseException(line, what + " '" + shown + "' is not a regular file");
      }
      long size = Files.size(real);
      if (size > limit) {
        throw new ParseException(line, tooBig(what, shown, size, limit));
      }
      try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS)) {
        // The file may grow between size() and here; read one byte past the limit to notice.
        byte[] data = in.readNBytes((int) Math.min(limit + 1, Integer.MAX_VALUE - 16));
        if (data.length > limit) {
          throw new ParseException(line, tooBig(what, shown, data.length, limit));
        }
        return data;
      }
    } catch (NoSuchFileException e) {
      throw new ParseException(line, what + " '" + shown + "' disappeared while being read");
    } catch (IOException e) {
      throw new ParseException(line, what + " '" + shown + "' cannot be read: " + reason(e));
    }
  }

  /**
   * {@code file} as its folders name it, when no file has its exact name but one has the same name
   * in another Unicode normalisation (a file copied from macOS is often named in NFD, the reference
   * to it typed in NFC, or the other way round); null when there is none. Only a miss is looked up,
   * one folder listing per segment that differs.
   */
  public static @Nullable Path otherForm(Root root, Path file) {
    Path normal = file.normalize();
    if (!root.contains(normal) || ascii(root.relative(normal))) {
      return null;
    }
    Path at = root.path();
    for (Path segment : root.path().relativize(normal)) {
      Path exact = at.resolve(segment);
      if (Files.exists(exact, LinkOption.NOFOLLOW_LINKS)) {
        at = exact;
        continue;
      }
      String wanted = PromptNames.nfc(segment.toString());
      Path match;
      try (Stream<Path> entries = Files.list(at)) {
        match = entries
            .filter(p -> PromptNames.nfc(p.getFileName().toString()).equals(wanted))
            .findFirst()
            .orElse(null);
      } catch (IOException e) {
        return null;
      }
      if (match == null) {
        return null;
      }
      at = match;
    }
    return at.equals(normal) ? null : at;
  }

  private static boolean ascii(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads a prompt file found by scanning its root, with fewer system calls than {@link #read}: the
   * real path of its folder is checked once per folder ({@code folders} caches the answers for one
   * scan) and the file is opened without following a link. A linked file gets the full checks of
   * {@link #read}.
   */
  public static byte[] readFound(Root root, Path file, long limit, Map<Path, Boolean> folders)
      throws ParseException {
    Path folder = file.getParent();
    if (folder == null || !folders.computeIfAbsent(folder, f -> realInside(root, f))) {
      return read(root, file, limit, 0, "prompt file");
    }
    try (SeekableByteChannel channel =
        Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      long size = channel.size();
      if (size > limit) {
        throw new ParseException(0, tooBig("prompt file", root.relative(file), size, limit));
      }
      ByteBuffer buffer = ByteBuffer.allocate((int) size + 1);
      while (channel.read(buffer) > 0) {
        if (!buffer.hasRemaining()) {
          // It grew since size(): let the careful path deal with it.
          return read(root, file, limit, 0, "prompt file");
        }
      }
      return Arrays.copyOf(buffer.array(), buffer.position());
    } catch (NoSuchFileException e) {
      throw new ParseException(
          0, "prompt file '" + root.relative(file) + "' disappeared while being read");
    } catch (IOException e) {
      // Most likely a link (O_NOFOLLOW refused it; JDK 25 throws a bare IOException for ELOOP) or
      // not a regular file: the careful path checks again and says which.
      return read(root, file, limit, 0, "prompt file");
    }
  }

  private static boolean realInside(Root root, Path folder) {
    try {
      return folder.toRealPath().startsWith(root.real());
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Decodes strict UTF-8, dropping a byte-order mark and turning CRLF into LF.
   *
   * @throws ParseException naming the line of the first malformed byte
   */
  public static String decodeUtf8(byte[] data) throws ParseException {
    CharsetDecoder decoder = StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(data);
    CharBuffer out = CharBuffer.allocate(data.length + 1);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      int at = in.position();
      throw new ParseException(
          lineOf(data, at),
          String.format(
              Locale.ROOT, "not valid UTF-8: byte 0x%02X at offset %d", data[at] & 0xff, at));
    }
    decoder.flush(out);
    String text = out.flip().toString();
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    return text.indexOf('\r') < 0 ? text : text.replace("\r\n", "\n");
  }

  private static int lineOf(byte[] data, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (data[i] == '\n') {
        line++;
      }
    }
    return line;
  }

  private static String tooBig(String what, String shown, long size, long limit) {
    return what + " '" + shown + "' is " + size + " bytes, over the limit of " + limit;
  }

  private static String reason(IOException e) {
    String message = e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message;
  }
}
