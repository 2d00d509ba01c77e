package io.promptd.library.parse;

import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.MediaTypes;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import io.promptd.library.parse.text.SafeFiles;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.TextResourceContents;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Set;

/**
 * Reads the files a prompt attaches — images, audio, embedded resources — at load time, inside the
 * root only, with the MIME type checked against the file's first bytes and the size capped.
 */
public final class Attachments {
  /** The URI scheme of resources embedded from library files; paths are relative to the root. */
  public static final String URI_PREFIX = "promptd:///";

  private final Root root;
  private final Path file;
  private final long maxBytes;
  private final Set<Path> dependencies;
  private final Set<Path> attached;
  private final FileAccess files;

  /**
   * Attachments of one prompt file.
   *
   * @param dependencies receives every file looked at, so the watcher can reload on its change
   * @param attached receives the library files the prompt attaches or links to, which are served as
   *     resources
   * @param files reads them
   */
  public Attachments(
      Root root,
      Path file,
      long maxBytes,
      Set<Path> dependencies,
      Set<Path> attached,
      FileAccess files) {
    this.root = root;
    this.file = file;
    this.maxBytes = maxBytes;
    this.dependencies = dependencies;
    this.attached = attached;
    this.files = files;
  }

  /**
   * Records the library file a {@code ::: link promptd:///PATH} names, if it names one inside the
   * root.
   */
  public void link(String target) {
    Path path = AttachmentRefs.linkTarget(root, target);
    if (path != null) {
      attached.add(path);
    }
  }

  /** An image or audio clip from {@code reference}. */
  public Content media(boolean image, String reference, int line) throws ParseException {
    Path path = SafeFiles.resolve(root, file, reference, line);
    dependencies.add(path);
    attached.add(path);
    String kind = image ? "image" : "audio";
    String name = path.getFileName().toString();
    String mimeType = image ? MediaTypes.image(name) : MediaTypes.audio(name);
    if (mimeType == null) {
      throw new ParseException(
          line, kind + " '" + reference + "' must end in one of: " + MediaTypes.supported(image));
    }
    byte[] data = files.read(root, path, maxBytes, line, kind);
    if (!MediaTypes.looksLike(mimeType, data)) {
      throw new ParseException(
          line, kind + " '" + reference + "' does not contain " + mimeType + " data");
    }
    String base64 = Base64.getEncoder().encodeToString(data);
    return image
        ? new ImageContent(base64, mimeType, null, null)
        : new AudioContent(base64, mimeType, null, null);
  }

  /**
   * An embedded resource from {@code reference}: text when it is a known text type in UTF-8, else a
   * blob.
   */
  public Content resource(String reference, int line) throws ParseException {
    Path path = SafeFiles.resolve(root, file, reference, line);
    dependencies.add(path);
    attached.add(path);
    byte[] data = files.read(root, path, maxBytes, line, "resource");
    String uri = URI_PREFIX + root.relative(path);
    String textType = MediaTypes.text(path.getFileName().toString());
    ResourceContents contents;
    if (textType != null) {
      try {
        contents = new TextResourceContents(uri, textType, SafeFiles.decodeUtf8(data), null);
      } catch (ParseException e) {
        throw new ParseException(
            line, "resource '" + reference + "' is " + textType + " but " + e.getMessage());
      }
    } else {
      String mimeType = MediaTypes.image(path.getFileName().toString());
      contents = new BlobResourceContents(
          uri,
          mimeType != null ? mimeType : "application/octet-stream",
          Base64.getEncoder().encodeToString(data),
          null);
    }
    return new EmbeddedResource(contents, null, null);
  }
}
