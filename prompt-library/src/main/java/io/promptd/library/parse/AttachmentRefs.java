package io.promptd.library.parse;

import io.promptd.mcp.protocol.ResourceContents;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Finds the files a {@code *.prompt.md} body attaches ({@code ::: image PATH}, {@code ::: audio PATH},
 * {@code ::: resource PATH}) or links to inside the library ({@code ::: link promptd:///PATH}), so that they can be
 * served as resources under {@value #URI_PREFIX}{@code PATH-RELATIVE-TO-THE-ROOT} — the URI the prompt's embedded
 * resources already carry. References the prompt parser refuses (outside the root, absolute) are skipped here; the
 * prompt library reports them.
 */
public final class AttachmentRefs {
  /** The URI prefix of library files served as resources; the rest is the path relative to the root. */
  public static final String URI_PREFIX = Attachments.URI_PREFIX;

  private static final Pattern MARKER = Pattern.compile("^:::\\s*([A-Za-z]+)\\s+(\\S.*?)\\s*$");
  private static final Pattern URI = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*:|\\{\\{).*");
  private static final String KEEP = "-._~!$&'()*+,;=:@/";
  private static final String HEX = "0123456789ABCDEF";

  private AttachmentRefs() {}

  /** The files inside {@code root} that the prompt file {@code file}, whose text is {@code text}, refers to. */
  public static Set<Path> scan(Root root, Path file, String text) {
    Set<Path> found = new LinkedHashSet<>();
    boolean fenced = false;
    for (String line : text.split("\n", -1)) {
      String stripped = line.stripLeading();
      if (stripped.startsWith("```") || stripped.startsWith("~~~")) {
        fenced = !fenced;
      }
      Matcher m = MARKER.matcher(line);
      if (fenced || !m.matches()) {
        continue;
      }
      String word = m.group(1).toLowerCase(Locale.ROOT);
      String argument = m.group(2);
      if (word.equals("link")) {
        String target = argument.split("\\s+", 2)[0];
        String relative = target.startsWith(URI_PREFIX) ? decode(target.substring(URI_PREFIX.length())) : null;
        if (relative != null) {
          try {
            found.add(SafeFiles.resolve(root, root.path().resolve("_"), relative, 0));
          } catch (ParseException e) {
            // Outside the root or absolute: never served.
          }
        }
      } else if ((word.equals("image") || word.equals("audio") || word.equals("resource"))
          && !URI.matcher(argument).matches()) {
        try {
          found.add(SafeFiles.resolve(root, file, argument, 0));
        } catch (ParseException e) {
          // Reported by the prompt library, which refuses the whole prompt.
        }
      }
    }
    return found;
  }

  /**
   * Reads a library file as a resource, inside the root only and at most {@code limit} bytes: text for the text
   * types promptd knows (then it must be UTF-8), else a blob, with image and audio bytes checked against their type.
   */
  public static ResourceContents read(Root root, Path file, String uri, long limit) throws ParseException {
    byte[] data = SafeFiles.read(root, file, limit, 0, "attachment");
    return ResourceParser.fromBytes(uri, mimeType(file), data, root.relative(file), 0);
  }

  /** Whether {@code file} is a regular file that lies inside {@code root} once links are resolved. */
  public static boolean servable(Root root, Path file) {
    try {
      Path real = file.toRealPath();
      return real.startsWith(root.real()) && Files.isRegularFile(real);
    } catch (IOException e) {
      return false;
    }
  }

  /** The MIME type a library file is served with, from its extension. */
  public static String mimeType(Path file) {
    return ResourceParser.guessType(file);
  }

  /**
   * The URI a library file is served under: {@value #URI_PREFIX} and its path relative to the root, with {@code /}
   * separators and every character outside RFC 3986's unreserved, sub-delims, {@code :}, {@code @} and {@code /}
   * percent-encoded as UTF-8.
   */
  public static String uri(Root root, Path file) {
    return URI_PREFIX + encode(root.relative(file));
  }

  /**
   * The form {@link #uri} gives to a {@code promptd:///} URI written any other way ({@code my notes.txt},
   * {@code my%20notes.txt}); other URIs unchanged.
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
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || KEEP.indexOf(c) >= 0) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 0xf));
      }
    }
    return out.toString();
  }
}
