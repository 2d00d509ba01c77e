package io.promptd.library.internal.skills;

import io.promptd.library.parse.text.MediaTypes;
import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.TextResourceContents;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The supporting files of a skill's prompt (every file but its {@code SKILL.md}), in the skill's
 * file order: a text file is embedded whole while it fits in what is left of the budget, so that a
 * skill saying "run scripts/collect.sh" can be followed by a model that sees only the prompt; a
 * binary file, an image or audio file, a file larger than what is left, and one that cannot be read
 * now are links stating their type and size. A hidden file (a path segment starting with a dot,
 * such as {@code .env}) is only ever linked: it is the usual place for a secret, and a prompt's
 * text goes to the model.
 *
 * <p>Text is told by the bytes, not the name: UTF-8 without a NUL byte. Bytes are read through a
 * {@link SkillPrompts.FileReader} that refuses a file lying outside the skill's folder, so a link
 * in the folder cannot put another file's text into the conversation.
 */
final class SkillPromptFiles {
  /** The type of an embedded file whose name suggests no text type. */
  static final String PLAIN = "text/plain";

  private SkillPromptFiles() {}

  /**
   * The contents for the files of {@code skill} after its {@code SKILL.md}: one for each, in the
   * skill's file order.
   *
   * @param budget the bytes embedded at most, summed over the files; 0 links every file
   */
  static List<Content> contents(SkillFolder skill, SkillPrompts.FileReader reader, long budget) {
    List<Content> out = new ArrayList<>();
    long left = budget;
    for (SkillFile f : skill.files()) {
      if (f.path().equals(SkillReader.SKILL_MD)) {
        continue;
      }
      String uri = LibrarySkills.uri(skill.path(), f.path());
      // A budget of 0 links every file, an empty one too.
      byte[] bytes = budget > 0 && f.size() <= left && !media(f.path()) && !hidden(f.path())
          ? reader.read(skill, f, left)
          : null;
      if (bytes != null && bytes.length <= left && text(bytes)) {
        left -= bytes.length;
        String type = LibrarySkills.isText(f.mimeType()) ? f.mimeType() : PLAIN;
        out.add(new EmbeddedResource(
            new TextResourceContents(uri, type, new String(bytes, StandardCharsets.UTF_8), null),
            null,
            null));
      } else {
        out.add(new ResourceLink(uri, f.path(), null, null, f.mimeType(), f.size(), null, null));
      }
    }
    return out;
  }

  /** Whether bytes are text: well-formed UTF-8 holding no NUL. */
  static boolean text(byte[] bytes) {
    for (byte b : bytes) {
      if (b == 0) {
        return false;
      }
    }
    return Utf8.valid(bytes);
  }

  /** Whether a segment of a skill-relative path starts with a dot. */
  static boolean hidden(String path) {
    return path.startsWith(".") || path.contains("/.");
  }

  /** Whether a file's name makes it an image or audio file, which is never embedded as text. */
  private static boolean media(String path) {
    return MediaTypes.image(path) != null || MediaTypes.audio(path) != null;
  }
}
