package io.promptd.git;

import io.promptd.library.LibraryFiles;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The files a library serves from a commit's tree, read from the object database (no working tree):
 * the files a folder library would read from a checkout of it. Regular (and executable) files in
 * the folders a folder library scans ({@link LibraryFiles#scanned}); hidden files only inside a
 * skill's folder (one holding a {@code SKILL.md}, and the folders below it). Symbolic links and
 * submodules are left out.
 */
final class GitTree {
  /** The largest file read: as large as the store takes one. */
  static final long MAX_BYTES = 10L << 20;

  private GitTree() {}

  /** The files of {@code commit} in {@code repo}. */
  static GitCommit read(Repository repo, ObjectId commit) throws IOException {
    try (RevWalk walk = new RevWalk(repo);
        ObjectReader reader = repo.newObjectReader()) {
      RevCommit c = walk.parseCommit(commit);
      Map<String, ObjectId> blobs = new TreeMap<>();
      try (TreeWalk tree = new TreeWalk(reader)) {
        tree.addTree(c.getTree());
        tree.setRecursive(false);
        while (tree.next()) {
          String path = tree.getPathString();
          if (path.contains("\\")) {
            continue; // no path on the library's side: it takes / separators only
          }
          int mode = tree.getRawMode(0);
          if (FileMode.TREE.equals(mode)) {
            if (LibraryFiles.scanned(path)) {
              tree.enterSubtree();
            }
          } else if (FileMode.REGULAR_FILE.equals(mode) || FileMode.EXECUTABLE_FILE.equals(mode)) {
            blobs.put(path, tree.getObjectId(0));
          }
        }
      }
      Set<String> skills = new HashSet<>();
      for (String path : blobs.keySet()) {
        if (path.endsWith("/SKILL.md")) {
          skills.add(path.substring(0, path.length() - "/SKILL.md".length()));
        }
      }
      Map<String, byte[]> files = new TreeMap<>();
      for (Map.Entry<String, ObjectId> e : blobs.entrySet()) {
        String path = e.getKey();
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (name.startsWith(".") && !inSkill(path, skills)) {
          continue;
        }
        long size = reader.getObjectSize(e.getValue(), Constants.OBJ_BLOB);
        if (size > MAX_BYTES) {
          throw new IOException(path + " is " + size + " bytes in commit " + c.name()
              + ", over the limit of " + MAX_BYTES);
        }
        files.put(path, reader.open(e.getValue(), Constants.OBJ_BLOB).getBytes());
      }
      return new GitCommit(c.name(), c.getAuthorIdent().getName(), files);
    }
  }

  /** Whether a folder above {@code path} is a skill's. */
  private static boolean inSkill(String path, Set<String> skills) {
    for (int slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      if (skills.contains(path.substring(0, slash))) {
        return true;
      }
    }
    return false;
  }
}
