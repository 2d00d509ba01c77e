package io.promptd.library.parse.text;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * MIME types by file extension, with a check of the first bytes so a renamed file is not sent as
 * something else.
 */
public final class MediaTypes {
  private static final Map<String, String> IMAGES = Map.of(
      "png",
      "image/png",
      "jpg",
      "image/jpeg",
      "jpeg",
      "image/jpeg",
      "gif",
      "image/gif",
      "webp",
      "image/webp");
  private static final Map<String, String> AUDIO =
      Map.of("wav", "audio/wav", "mp3", "audio/mpeg", "ogg", "audio/ogg", "flac", "audio/flac");
  private static final Map<String, String> TEXT = Map.ofEntries(
      Map.entry("txt", "text/plain"),
      Map.entry("md", "text/markdown"),
      Map.entry("json", "application/json"),
      Map.entry("yaml", "application/yaml"),
      Map.entry("yml", "application/yaml"),
      Map.entry("csv", "text/csv"),
      Map.entry("html", "text/html"),
      Map.entry("xml", "application/xml"),
      Map.entry("java", "text/x-java"),
      Map.entry("py", "text/x-python"),
      Map.entry("js", "text/javascript"),
      Map.entry("ts", "text/x-typescript"),
      Map.entry("sh", "text/x-shellscript"),
      Map.entry("diff", "text/x-diff"),
      Map.entry("patch", "text/x-diff"));

  private MediaTypes() {}

  /** The image type for {@code fileName}, or null if it is not a supported image. */
  public static @Nullable String image(String fileName) {
    return IMAGES.get(extension(fileName));
  }

  /** The audio type for {@code fileName}, or null if it is not a supported audio file. */
  public static @Nullable String audio(String fileName) {
    return AUDIO.get(extension(fileName));
  }

  /** The text type for {@code fileName}, or null when the file should be embedded as a blob. */
  public static @Nullable String text(String fileName) {
    return TEXT.get(extension(fileName));
  }

  /**
   * The content type {@code fileName} suggests, for a file served as it is (a skill's): a known
   * image, audio or text type, else {@code application/octet-stream}.
   */
  public static String guess(String fileName) {
    String type = text(fileName);
    if (type == null) {
      type = image(fileName);
    }
    if (type == null) {
      type = audio(fileName);
    }
    return type == null ? "application/octet-stream" : type;
  }

  /** The supported image and audio extensions, for error messages. */
  public static String supported(boolean image) {
    return String.join(", ", (image ? IMAGES : AUDIO).keySet().stream().sorted().toList());
  }

  /** Whether {@code data} starts the way files of {@code mimeType} do. */
  public static boolean looksLike(String mimeType, byte[] data) {
    return switch (mimeType) {
      case "image/png" ->
        starts(data, 0, new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
      case "image/jpeg" -> starts(data, 0, new byte[] {(byte) 0xff, (byte) 0xd8, (byte) 0xff});
      case "image/gif" -> starts(data, 0, ascii("GIF8"));
      case "image/webp" -> starts(data, 0, ascii("RIFF")) && starts(data, 8, ascii("WEBP"));
      case "audio/wav" -> starts(data, 0, ascii("RIFF")) && starts(data, 8, ascii("WAVE"));
      case "audio/mpeg" ->
        starts(data, 0, ascii("ID3"))
            || (data.length > 1 && (data[0] & 0xff) == 0xff && (data[1] & 0xe0) == 0xe0);
      case "audio/ogg" -> starts(data, 0, ascii("OggS"));
      case "audio/flac" -> starts(data, 0, ascii("fLaC"));
      default -> true;
    };
  }

  private static String extension(String fileName) {
    int dot = fileName.lastIndexOf('.');
    return dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private static boolean starts(byte[] data, int offset, byte[] prefix) {
    return data.length >= offset + prefix.length
        && Arrays.equals(data, offset, offset + prefix.length, prefix, 0, prefix.length);
  }
}
