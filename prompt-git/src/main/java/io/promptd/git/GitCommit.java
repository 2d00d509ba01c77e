package io.promptd.git;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A commit's library files, as {@link GitLibrary#readHead} reads them.
 *
 * @param id the commit's id, 40 hexadecimal digits
 * @param author the name of the commit's author
 * @param files each file's path (relative, {@code /} separators) and bytes: what a library serves
 *     from the commit
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public record GitCommit(String id, String author, Map<String, byte[]> files) {
  /** Checks the arguments and copies the map (not the arrays), sorted by path. */
  public GitCommit {
    requireNonNull(id, "id");
    requireNonNull(author, "author");
    files = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(files, "files")));
  }
}
