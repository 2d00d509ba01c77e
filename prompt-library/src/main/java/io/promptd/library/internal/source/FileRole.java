package io.promptd.library.internal.source;

import io.promptd.library.parse.ResourceParser;
import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.text.FolderFile;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * What a library file is for, decided in one place for every source's listing: prompt files,
 * resource files and folder files are listed alike ({@link FolderWalker.Found}) and each role's
 * index reads its own. Another kind of library file is one more role, told apart here, and the
 * index that reads it.
 */
public enum FileRole {
  /** A prompt file of one of the {@link io.promptd.library.parse.format.PromptFormats formats}. */
  PROMPT,
  /** A resource file, {@code NAME.resource.md}. */
  RESOURCE,
  /**
   * A folder file, {@code _folder.yaml}: defaults for the prompts and resources of its folder and
   * those below.
   */
  FOLDER,
  /**
   * A skill's {@code SKILL.md}: its folder is a skill, read whole by
   * {@link io.promptd.library.internal.index.SkillIndex}.
   */
  SKILL;

  /**
   * The role of {@code file}, which {@link FileKind} classified as {@code match} (null when no
   * format reads it), or null when the library does not read it. A file a prompt format reads is a
   * prompt file whatever its name.
   */
  public static @Nullable FileRole of(FileKind.@Nullable Match match, Path file) {
    if (match != null) {
      return PROMPT;
    }
    if (FolderFile.is(file)) {
      return FOLDER;
    }
    if (isSkillMd(file)) {
      return SKILL;
    }
    return ResourceParser.isResourceFile(file) ? RESOURCE : null;
  }

  /** The name of a skill's main file. */
  public static final String SKILL_MD = "SKILL.md";

  /** Whether {@code file} is a skill's {@code SKILL.md}. */
  public static boolean isSkillMd(Path file) {
    Path name = file.getFileName();
    return name != null && name.toString().equals(SKILL_MD);
  }
}
