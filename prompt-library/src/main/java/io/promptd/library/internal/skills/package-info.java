/**
 * Internal: Agent Skills — folders holding a {@code SKILL.md}
 * ({@link io.promptd.library.internal.skills.SkillFolder}), how they are read and checked, served
 * through the Skills extension ({@link io.promptd.library.internal.skills.LibrarySkills}) and as
 * prompts ({@link io.promptd.library.internal.skills.SkillPrompts}).
 */
@NullMarked
package io.promptd.library.internal.skills;

import org.jspecify.annotations.NullMarked;
