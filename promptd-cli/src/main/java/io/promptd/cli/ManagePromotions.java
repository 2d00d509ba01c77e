package io.promptd.cli;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonException;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.spi.Caller;
import io.promptd.store.FileVersion;
import io.promptd.store.LabelMove;
import io.promptd.store.Promotion;
import io.promptd.store.PromptStore;
import io.promptd.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Release promotion over the management API: {@code POST /manage/v1/labels/promote} with
 * {@code {"from", "to", "only"?, "dryRun"?}} points {@code to} at what {@code from} points at on
 * the files the caller may see, as {@code promptd label promote} does, in one transaction;
 * {@code POST /manage/v1/promotions/revert} with {@code {"promotion", "dryRun"?}} puts back what a
 * recorded promotion moved, as {@code promptd label revert} does; and {@code GET
 * /manage/v1/promotions} lists the recorded promotions. A file the caller may not see is neither
 * moved nor named: a promotion that moved only such files is answered as one that does not exist,
 * and one that moved some is reverted only by a caller who may see them all. A move that changes
 * who sees what needs the admin scope; a protected {@code to} needs its scope. Any refusal refuses
 * the whole promotion or revert: nothing moves.
 */
final class ManagePromotions {
  private static final Set<String> FIELDS = Set.of("from", "to", "only", "dryRun");
  private static final String SHAPE =
      "{\"from\": LABEL, \"to\": LABEL, \"only\": [NAME, ...] (optional), \"dryRun\": true|false"
          + " (optional)}";
  private static final Set<String> REVERT_FIELDS = Set.of("promotion", "dryRun");
  private static final String REVERT_SHAPE =
      "{\"promotion\": NUMBER (see GET /manage/v1/promotions), \"dryRun\": true|false (optional)}";

  private final PromptStore store;
  private final ManageVisibility visibility;
  private final ManageMoves moves;

  ManagePromotions(PromptStore store, ManageVisibility visibility, ManageMoves moves) {
    this.store = store;
    this.visibility = visibility;
    this.moves = moves;
  }

  /** {@code POST /manage/v1/labels/promote}: the promotion made, or that would be. */
  byte[] promote(byte[] body, Caller caller) throws ManageApi.Refused, StoreException {
    JsonObject request = parse(body, FIELDS, SHAPE);
    String from = label(request, "from");
    String to = label(request, "to");
    List<String> only = only(request.get("only"));
    boolean dry = dryRun(request);
    Map<String, List<FileVersion>> all = ManageVisibility.byPath(store.history());
    Set<String> within = new TreeSet<>();
    if (only.isEmpty()) {
      within.addAll(visibility.visible(caller, all.keySet(), all));
    } else {
      for (String name : only) {
        within.addAll(visibility.named(name, caller));
      }
    }
    if (within.isEmpty()) {
      throw new ManageApi.Refused(404, "the label '" + from + "' points at no file");
    }
    String unprotected = moves.unprotected(to);
    String author = author(caller);
    Promotion p = store
        .labels()
        .promoteFiles(from, to, within, author, caller.scopes(), unprotected, dry, made -> {
          for (LabelMove m : made) {
            String refusal = moves.adminRefusal(m.path(), to, m.from(), m.to(), caller, all);
            if (refusal != null) {
              throw new StoreException(StoreException.Kind.FORBIDDEN, refusal);
            }
          }
        });
    return JsonCodec.writeBytes(promotion(p, dry), true);
  }

  /**
   * {@code POST /manage/v1/promotions/revert}: the revert made, or that would be. A promotion that
   * moved only files the caller may not see is answered as an unknown number (404); one that moved
   * some of them is refused (403) without naming them.
   */
  byte[] revert(byte[] body, Caller caller) throws ManageApi.Refused, StoreException {
    JsonObject request = parse(body, REVERT_FIELDS, REVERT_SHAPE);
    if (!(request.get("promotion") instanceof JsonNumber n) || !n.isLong() || n.longValue() < 1) {
      throw new ManageApi.Refused(
          400, "\"promotion\" must be a promotion's number, 1 or more: " + REVERT_SHAPE);
    }
    long id = n.longValue();
    boolean dry = dryRun(request);
    Map<String, List<FileVersion>> all = ManageVisibility.byPath(store.history());
    Promotion original = null;
    for (Promotion p : store.labels().promotions(null)) {
      if (p.id() == id) {
        original = p;
      }
    }
    if (original == null) {
      throw unknown(id);
    }
    Set<String> paths = new TreeSet<>();
    original.moves().forEach(m -> paths.add(m.path()));
    Set<String> seen = visibility.visible(caller, paths, all);
    if (seen.isEmpty()) {
      throw unknown(id);
    }
    if (!seen.equals(paths)) {
      throw new ManageApi.Refused(
          403,
          "promotion #" + id + " also moved files this token may not see: only a token that may"
              + " see every file it moved, or the command line (promptd label revert " + id
              + "), can revert it; no label was moved");
    }
    String unprotected = moves.unprotected(original.to());
    Promotion p;
    try {
      p = store.labels().revert(id, author(caller), caller.scopes(), unprotected, dry, planned -> {
        for (LabelMove m : planned) {
          String refusal = moves.adminRefusal(m.path(), m.label(), m.from(), m.to(), caller, all);
          if (refusal != null) {
            throw new StoreException(StoreException.Kind.FORBIDDEN, refusal);
          }
        }
      });
    } catch (StoreException e) {
      if (e.kind() == StoreException.Kind.NOT_FOUND) {
        throw unknown(id);
      }
      throw e;
    }
    return JsonCodec.writeBytes(promotion(p, dry), true);
  }

  private static ManageApi.Refused unknown(long id) {
    return new ManageApi.Refused(
        404, "there is no promotion #" + id + " (GET /manage/v1/promotions lists them)");
  }

  /** The author a move over the API records: {@code api:SUBJECT}. */
  private static String author(Caller caller) {
    // A caller without authorization in force cannot be here: --manage needs OAuth.
    return "api:" + (caller.subject() == null ? "unknown" : caller.subject());
  }

  private static boolean dryRun(JsonObject request) throws ManageApi.Refused {
    Json dryRun = request.get("dryRun");
    if (dryRun != null && !(dryRun instanceof JsonBoolean)) {
      throw new ManageApi.Refused(400, "\"dryRun\" must be true or false");
    }
    return dryRun instanceof JsonBoolean b && b.value();
  }

  /**
   * {@code GET /manage/v1/promotions}: the recorded promotions, newest first, each with its moves
   * on the files the caller may see; a promotion that moved none of those is left out.
   */
  byte[] list(Caller caller) throws StoreException {
    Map<String, List<FileVersion>> all = ManageVisibility.byPath(store.history());
    Set<String> seen = visibility.visible(caller, all.keySet(), all);
    List<Json> out = new ArrayList<>();
    for (Promotion p : store.labels().promotions(null)) {
      List<LabelMove> shown =
          p.moves().stream().filter(m -> seen.contains(m.path())).toList();
      if (!shown.isEmpty()) {
        out.add(promotion(
            new Promotion(
                p.id(),
                p.from(),
                p.to(),
                p.libraryVersion(),
                p.author(),
                p.time(),
                shown,
                p.reverts()),
            false));
      }
    }
    return JsonCodec.writeBytes(
        JsonObject.builder().put("promotions", new JsonArray(out)).build(), true);
  }

  private static JsonObject promotion(Promotion p, boolean dryRun) {
    List<Json> files = new ArrayList<>();
    for (LabelMove m : p.moves()) {
      files.add(JsonObject.builder()
          .put("path", m.path())
          .put("from", m.from() == 0 ? JsonNull.INSTANCE : JsonNumber.of(m.from()))
          .put("to", m.to() == 0 ? JsonNull.INSTANCE : JsonNumber.of(m.to()))
          .put("change", Promotion.Change.of(m).name().toLowerCase(Locale.ROOT))
          .build());
    }
    return JsonObject.builder()
        .put("promotion", p.id() == 0 ? JsonNull.INSTANCE : JsonNumber.of(p.id()))
        .put("from", p.from())
        .put("to", p.to())
        .put("dryRun", dryRun)
        .put("libraryVersion", p.libraryVersion())
        .put("author", p.author())
        .put("time", p.time().toString())
        .put("reverts", p.reverts() == 0 ? JsonNull.INSTANCE : JsonNumber.of(p.reverts()))
        .put("files", new JsonArray(files))
        .build();
  }

  private static JsonObject parse(byte[] body, Set<String> fields, String shape)
      throws ManageApi.Refused {
    Json parsed;
    try {
      parsed = JsonCodec.parse(body, 0, body.length);
    } catch (JsonException e) {
      throw new ManageApi.Refused(400, "the body is not JSON: " + e.getMessage());
    }
    if (!(parsed instanceof JsonObject o)) {
      throw new ManageApi.Refused(400, "the body must be a JSON object: " + shape);
    }
    for (String field : o.members().keySet()) {
      if (!fields.contains(field)) {
        throw new ManageApi.Refused(
            400, "the body has an unknown field \"" + field + "\"; it takes " + shape);
      }
    }
    return o;
  }

  private static String label(JsonObject request, String field) throws ManageApi.Refused {
    if (!(request.get(field) instanceof JsonString s) || s.value().isEmpty()) {
      throw new ManageApi.Refused(400, "the body needs \"" + field + "\", a label: " + SHAPE);
    }
    return s.value();
  }

  private static List<String> only(@Nullable Json given) throws ManageApi.Refused {
    if (given == null || given instanceof JsonNull) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    if (given instanceof JsonArray a && !a.elements().isEmpty()) {
      for (Json e : a.elements()) {
        if (!(e instanceof JsonString s) || s.value().isEmpty()) {
          names.clear();
          break;
        }
        names.add(s.value());
      }
    }
    if (names.isEmpty()) {
      throw new ManageApi.Refused(
          400, "\"only\" must be a non-empty list of prompt names (leave it out for every file)");
    }
    return names;
  }
}
