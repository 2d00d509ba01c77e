package io.promptd.library.parse;

import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.FolderFile;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import io.promptd.mcp.protocol.ResourceContents;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The files a {@code *.prompt.md} body attaches ({@code ::: image PATH}, {@code ::: audio PATH},
 * {@code ::: resource PATH}) or links to inside the library ({@code ::: link promptd:///PATH}),
 * served as resources under {@value #URI_PREFIX}{@code PATH-RELATIVE-TO-THE-ROOT} — the URI the
 * prompt's embedded resources already carry. The prompt parse finds them; this class names, encodes
 * and reads them.
 */
public final class AttachmentRefs {
  /**
   * The URI prefix of library files served as resources; the rest is the path relative to the root.
   */
  public static final String URI_PREFIX = Attachments.URI_PREFIX;

  private static final String KEEP = "-._~!$&'()*+,;=:@/";
  private static final String HEX = "0123456789ABCDEF";

  private AttachmentRefs() {}

  /**
   * The library file a {@code ::: link} target names when it is a {@code promptd:///PATH} URI
   * inside the root; null for any other URI (or a path outside the root, which is never served).
   */
  public static @Nullable Path linkTarget(Root root, String target) {
    if (!target.startsWith(URI_PREFIX)) {
      return null;
    }
    String relative = decode(target.substring(URI_PREFIX.length()));
    if (relative == null) {
      return null;
    }
    try {
      return SafeFiles.resolve(root, root.path().resolve("_"), relative, 0);
    } catch (ParseException e) {
      return null;
    }
  }

  /**
   * Reads a library file as a resource, inside the root only and at most {@code limit} bytes: text
   * for the text types promptd knows (then it must be UTF-8), else a blob, with image and audio
   * bytes checked against their type.
   */
  public static ResourceContents read(
      Root root, Path file, String uri, long limit, FileAccess files) throws ParseException {
    byte[] data = files.read(root, file, limit, 0, "attachment");
    return ResourceParser.fromBytes(uri, mimeType(file), data, root.relative(file), 0);
  }

  /**
   * Whether {@code file} is a regular file that lies inside {@code root} once links are resolved,
   * and is not a {@link FolderFile}, which is settings, never content.
   */
  public static boolean servable(Root root, Path file) {
    if (FolderFile.is(file)) {
      return false; // settings, never content
    }
    try {
      Path real = file.toRealPath();
      return real.startsWith(root.real()) && Files.isRegularFile(real) && !FolderFile.is(real);
    } catch (IOException e) {
      return false;
    }
  }

  /** The MIME type a library file is served with, from its extension. */
  public static String mimeType(Path file) {
    return ResourceParser.guessType(file);
  }

  /**
   * The URI a library file is served under: {@value #URI_PREFIX} and its path relative to the root,
   * with {@code /} separators and every character outside RFC 3986's unreserved, sub-delims,
   * {@code :}, {@code @} and {@code /} percent-encoded as UTF-8.
   */
  public static String uri(Root root, Path file) {
    return URI_PREFIX + encode(root.relative(file));
  }

  /**
   * The form {@link #uri} gives to a {@code promptd:///} URI written any other way ({@code my
   * notes.txt}, {@code my%20notes.txt}); other URIs unchanged.
   */
  public static String canonical(String uri) {
    if (!uri.startsWith(URI_PREFIX)) {
      return uri;
    }
    String decoded = decode(uri.substring(URI_PREFIX.length()));
    return decoded == null ? uri : URI_PREFIX + encode(decoded);
  }

  private static @Nullable String decode(String path) {
    try {
      return URLDecoder.decode(path.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static String encode(String path) {
    StringBuilder out = new StringBuilder(path.length());
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || KEEP.indexOf(c) >= 0) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 0xf));
      }
    }
    return out.toString();
  }
}
