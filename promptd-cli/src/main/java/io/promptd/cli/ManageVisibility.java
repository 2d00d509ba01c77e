package io.promptd.cli;

import io.promptd.library.LibraryFiles;
import io.promptd.mcp.spi.Caller;
import io.promptd.store.FileVersion;
import io.promptd.store.PromptStore;
import io.promptd.store.StoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which of the store's files a caller of the management API may see: never more than
 * {@code prompts/list} and {@code prompts/get} show it on any label the store can serve. A file
 * needs every scope any of its versions declared ({@code scopes:}) and, unless each of its versions
 * declared its own, every scope any version of the folder files above it set, up to the nearest
 * folder whose folder file set scopes in all its versions. So an old version's text, a deleted
 * file's and a folder file's history are shown only to a caller who could have seen every version
 * of them; a declaration that cannot be read hides the file from everyone (fail closed). What one
 * version declares is read from its bytes once and kept by digest.
 */
final class ManageVisibility {
  /** The declarations kept, by path and digest: enough for a large library's every version. */
  private static final int KEPT = 50_000;

  private static final String FOLDER_FILE = "_folder.yaml";

  private final PromptStore store;
  /** Path NUL sha256 to what that content declares; empty for none. */
  private final Map<String, Optional<Set<String>>> declared =
      new LinkedHashMap<>(1024, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Optional<Set<String>>> eldest) {
          return size() > KEPT;
        }
      };

  ManageVisibility(PromptStore store) {
    this.store = store;
  }

  /**
   * The files {@code name} names, when the caller may see every one of them; else refused exactly
   * as a name that names nothing is, so that the answer does not tell a hidden file from a missing
   * one.
   */
  Set<String> named(String name, Caller caller) throws ManageApi.Refused, StoreException {
    Set<String> paths;
    try {
      paths = store.paths(name);
    } catch (StoreException e) {
      if (e.kind() == StoreException.Kind.NOT_FOUND) {
        throw missing(name);
      }
      throw e;
    }
    Map<String, List<FileVersion>> all = ManageVisibility.byPath(store.history());
    if (!visible(caller, paths, all).equals(paths)) {
      throw missing(name);
    }
    return paths;
  }

  private static ManageApi.Refused missing(String name) {
    return new ManageApi.Refused(404, "no file in the store is or names '" + name + "'");
  }

  /** The versions of every file, by path, as {@code history} lists them. */
  static Map<String, List<FileVersion>> byPath(List<FileVersion> history) {
    Map<String, List<FileVersion>> out = new LinkedHashMap<>();
    for (FileVersion v : history) {
      out.computeIfAbsent(v.path(), p -> new ArrayList<>()).add(v);
    }
    return out;
  }

  /**
   * The paths of {@code paths} that {@code caller} may see, judged against {@code all}: every
   * version of every file ({@link PromptStore#history()}, by {@link #byPath}).
   */
  Set<String> visible(Caller caller, Set<String> paths, Map<String, List<FileVersion>> all)
      throws StoreException {
    Set<String> out = new HashSet<>();
    for (String path : paths) {
      if (caller.permits(required(path, all))) {
        out.add(path);
      }
    }
    return out;
  }

  /** The scopes a caller must hold to see {@code path}. */
  Set<String> required(String path, Map<String, List<FileVersion>> all) throws StoreException {
    Set<String> required = new HashSet<>();
    boolean ownInEvery = declareAll(path, all.getOrDefault(path, List.of()), required);
    if (ownInEvery) {
      return required;
    }
    for (String dir = parent(path); dir != null; dir = parent(dir)) {
      String folderFile = dir.isEmpty() ? FOLDER_FILE : dir + "/" + FOLDER_FILE;
      List<FileVersion> versions = all.get(folderFile);
      if (versions != null && declareAll(folderFile, versions, required)) {
        break; // every version of this folder's file decided: nothing above ever applied
      }
    }
    return required;
  }

  /**
   * Adds what each version of {@code path} declares to {@code into}; whether every version declared
   * something.
   */
  private boolean declareAll(String path, List<FileVersion> versions, Set<String> into)
      throws StoreException {
    boolean every = !versions.isEmpty();
    for (FileVersion v : versions) {
      Set<String> own = v.deleted() ? null : declared(path, v);
      if (own == null) {
        every = false;
      } else {
        into.addAll(own);
      }
    }
    return every;
  }

  private @Nullable Set<String> declared(String path, FileVersion v) throws StoreException {
    String sha256 = v.sha256();
    String key = path + "\0" + (sha256 == null ? "v" + v.version() : sha256);
    synchronized (declared) {
      Optional<Set<String>> known = declared.get(key);
      if (known != null) {
        return known.orElse(null);
      }
    }
    byte[] data = store.content(path, v.version());
    Set<String> own = data == null ? null : LibraryFiles.declaredScopes(path, data);
    synchronized (declared) {
      declared.put(key, Optional.ofNullable(own));
    }
    return own;
  }

  /** The folder holding {@code path} ({@code ""} for the root), or null for the root itself. */
  private static @Nullable String parent(String path) {
    if (path.isEmpty()) {
      return null;
    }
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }

  /**
   * Whether changing which version of {@code path} is served can change who sees what: a folder
   * file's.
   */
  static boolean decidesVisibility(String path) {
    return path.equals(FOLDER_FILE) || path.endsWith("/" + FOLDER_FILE);
  }

  /**
   * Whether serving version {@code to} of {@code path} instead of {@code from} (0: none) changes
   * the scopes the file declares.
   */
  boolean changesScopes(String path, List<FileVersion> versions, int from, int to)
      throws StoreException {
    Map<Integer, FileVersion> byNumber = new HashMap<>();
    versions.forEach(v -> byNumber.put(v.version(), v));
    FileVersion a = byNumber.get(from);
    FileVersion b = byNumber.get(to);
    Set<String> before = a == null || a.deleted() ? null : declared(path, a);
    Set<String> after = b == null || b.deleted() ? null : declared(path, b);
    return before == null ? after != null : !before.equals(after);
  }
}
