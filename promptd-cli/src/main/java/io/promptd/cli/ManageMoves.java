package io.promptd.cli;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.spi.Caller;
import io.promptd.store.FileLabel;
import io.promptd.store.FileVersion;
import io.promptd.store.PromptStore;
import io.promptd.store.StoreException;
import io.promptd.store.StoreLabels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Label moves over the management API ({@code POST /manage/v1/labels}): on files the caller may see
 * only, with the admin scope for a move that changes who sees what, and the labels the server
 * serves protected by default.
 */
final class ManageMoves {
  /**
   * A scope no token can hold (scope tokens have no spaces): what a served label needs without an
   * admin scope.
   */
  private static final String NOBODY = "promptd: the command line only";

  private final PromptStore store;
  private final ManageApi.Access access;
  private final ManageVisibility visibility;

  ManageMoves(PromptStore store, ManageApi.Access access, ManageVisibility visibility) {
    this.store = store;
    this.access = access;
    this.visibility = visibility;
  }

  byte[] move(byte[] body, Caller caller) throws ManageApi.Refused, StoreException {
    JsonObject move;
    try {
      if (!(JsonCodec.parse(body, 0, body.length) instanceof JsonObject o)) {
        throw new ManageApi.Refused(
            400, "the body must be a JSON object: {\"name\", \"version\", \"label\"}");
      }
      move = o;
    } catch (JsonException e) {
      throw new ManageApi.Refused(400, "the body is not JSON: " + e.getMessage());
    }
    String name = move.string("name").orElse(null);
    String label = move.string("label").orElse(null);
    Json version = move.get("version");
    if (name == null || name.isEmpty() || label == null) {
      throw new ManageApi.Refused(
          400, "the body needs \"name\" and \"label\" (strings) and \"version\"");
    }
    if (!(version instanceof JsonNumber n)
        || !n.isLong()
        || n.longValue() < 1
        || n.longValue() > Integer.MAX_VALUE) {
      throw new ManageApi.Refused(
          400, "\"version\" must be a version number (1 or more; see /manage/v1/versions)");
    }
    int to = (int) n.longValue();
    StoreLabels.check(label);
    Set<String> paths = visibility.named(name, caller);
    checkAdmin(name, paths, label, to, caller);
    // A caller without authorization in force cannot be here: --manage needs OAuth.
    String author = "api:" + (caller.subject() == null ? "unknown" : caller.subject());
    String unprotected = unprotected(label);
    var moves = store.labels().set(name, to, label, author, caller.scopes(), unprotected);
    return JsonCodec.writeBytes(ManageJson.moves(moves), true);
  }

  /**
   * The scope moving {@code label} needs when it has no protection of its own: the admin scope for
   * a label this server serves (protected by default), else none.
   *
   * @throws ManageApi.Refused 403 for a served, unprotected label on a server without an admin
   *     scope: only the command line moves it
   */
  @Nullable
  String unprotected(String label) throws ManageApi.Refused, StoreException {
    if (!access.served().contains(label)) {
      return null;
    }
    if (access.admin() == null && !store.labels().protections().containsKey(label)) {
      throw new ManageApi.Refused(
          403,
          "the label '" + label + "' is served by this server and protected by default; this"
              + " server has no --manage-admin-scope, so protect it with a scope of its own"
              + " (promptd label protect " + label + " --scope SCOPE) or move it with promptd"
              + " label set");
    }
    return access.admin() == null ? NOBODY : access.admin();
  }

  /**
   * Why moving {@code label} on {@code path} from version {@code from} (0: the file lacks it) to
   * {@code to} (0: removed) needs the admin scope the caller lacks, or null when it may: a move
   * that changes who sees what — a folder file's, or one to a version that declares other scopes
   * than the one the label points at now (or, without the label, the file's newest).
   *
   * @param all every version of every file, by path ({@link ManageVisibility#byPath})
   */
  @Nullable
  String adminRefusal(
      String path,
      String label,
      int from,
      int to,
      Caller caller,
      Map<String, List<FileVersion>> all)
      throws StoreException {
    String admin = access.admin();
    if (admin != null && caller.scopes().contains(admin)) {
      return null;
    }
    List<FileVersion> versions = all.getOrDefault(path, List.of());
    int before = from != 0 ? from : versions.isEmpty() ? 0 : versions.get(0).version();
    boolean deciding = ManageVisibility.decidesVisibility(path)
        || (to != 0 && visibility.changesScopes(path, versions, before, to));
    if (!deciding || before == to) {
      return null;
    }
    return "moving '" + label + "' on '" + path + "' changes who may see prompts (a folder file or"
        + " a file's scopes): "
        + (admin == null
            ? "this server has no --manage-admin-scope, so only the command line (promptd label"
                + " set) can do it"
            : "it needs the scope '" + admin + "'");
  }

  /**
   * Refuses a move that changes who sees what ({@link #adminRefusal}) unless the caller holds the
   * admin scope.
   */
  private void checkAdmin(String name, Set<String> paths, String label, int to, Caller caller)
      throws ManageApi.Refused, StoreException {
    Map<String, List<FileVersion>> all = ManageVisibility.byPath(store.history(name));
    Map<String, Integer> now = new HashMap<>();
    for (FileLabel l : store.labels().list(name)) {
      if (l.label().equals(label)) {
        now.put(l.path(), l.version());
      }
    }
    for (String path : paths) {
      String refusal = adminRefusal(path, label, now.getOrDefault(path, 0), to, caller, all);
      if (refusal != null) {
        throw new ManageApi.Refused(403, refusal);
      }
    }
  }
}
