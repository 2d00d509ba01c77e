/**
 * A Git branch as a prompt library: {@link io.promptd.git.GitLibrary} serves the head commit of a
 * branch from a local clone and follows the branch (polling, and {@link io.promptd.git.GitWebhook}
 * for pushes announced by the Git host); {@link io.promptd.git.GitLibrary#readHead} reads the head
 * once, for {@code promptd publish --from-git}.
 */
@NullMarked
package io.promptd.git;

import org.jspecify.annotations.NullMarked;
