package io.promptd.cli;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.store.FileLabel;
import io.promptd.store.FileVersion;
import io.promptd.store.LabelMove;
import io.promptd.store.PromptStore;
import io.promptd.store.SplitShare;
import io.promptd.store.StoreException;
import io.promptd.store.UsageReport;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The management API's answers, built from the store (see {@code manage-openapi.json} for their
 * shapes).
 */
final class ManageJson {
  private ManageJson() {}

  /**
   * {@code GET /manage/v1/prompts}: one page of files, with their versions and the labels on each,
   * and the cursor of the next page when there is one.
   */
  static JsonObject prompts(
      PromptStore store, List<FileVersion> history, List<FileLabel> labels, @Nullable String next)
      throws StoreException {
    JsonObject page = files(history, labels, store);
    return next == null ? page : page.toBuilder().put("nextCursor", next).build();
  }

  /**
   * {@code GET /manage/v1/versions?name=NAME}: the files NAME names, with their versions, labels
   * and label moves.
   */
  static JsonObject versions(PromptStore store, String name) throws StoreException {
    List<FileVersion> history = store.history(name);
    JsonObject files = files(history, store.labels().list(name), store);
    List<Json> moves = new ArrayList<>();
    store.labels().moves(name).forEach(m -> moves.add(move(m)));
    return files.toBuilder().put("moves", new JsonArray(moves)).build();
  }

  private static JsonObject files(
      List<FileVersion> history, List<FileLabel> labels, PromptStore store) throws StoreException {
    Map<String, Map<Integer, List<String>>> labelled = new TreeMap<>();
    Map<String, Map<Integer, JsonObject.Builder>> splits = new TreeMap<>();
    for (FileLabel l : labels) {
      labelled
          .computeIfAbsent(l.path(), p -> new TreeMap<>())
          .computeIfAbsent(l.version(), v -> new ArrayList<>())
          .add(l.label());
      int total = l.split().stream().mapToInt(SplitShare::weight).sum();
      for (SplitShare s : l.split()) {
        splits
            .computeIfAbsent(l.path(), p -> new TreeMap<>())
            .computeIfAbsent(s.version(), v -> JsonObject.builder())
            .put(
                l.label(),
                JsonObject.builder().put("weight", s.weight()).put("of", total).build());
      }
    }
    Map<String, List<Json>> byPath = new LinkedHashMap<>();
    for (FileVersion v : history) {
      String sha256 = v.sha256();
      List<String> on =
          labelled.getOrDefault(v.path(), Map.of()).getOrDefault(v.version(), List.of());
      JsonObject.Builder b = JsonObject.builder()
          .put("version", v.version())
          .put("libraryVersion", v.libraryVersion())
          .put("time", v.time().toString())
          .put("author", v.author())
          .put("sha256", sha256 == null ? JsonNull.INSTANCE : ManageApi.text(sha256))
          .put("deleted", v.deleted())
          .put("labels", JsonArray.ofStrings(on));
      JsonObject.Builder split = splits.getOrDefault(v.path(), Map.of()).get(v.version());
      if (split != null) {
        b.put("splits", split.build());
      }
      byPath.computeIfAbsent(v.path(), p -> new ArrayList<>()).add(b.build());
    }
    List<Json> files = new ArrayList<>();
    byPath.forEach((path, versions) -> files.add(JsonObject.builder()
        .put("path", path)
        .put("versions", new JsonArray(versions))
        .build()));
    return JsonObject.builder()
        .put("files", new JsonArray(files))
        .put("protectedLabels", protections(store))
        .build();
  }

  /**
   * {@code GET /manage/v1/labels}: where the labels point on {@code labels}' files, and which are
   * protected by which scope.
   */
  static JsonObject labels(PromptStore store, List<FileLabel> labels) throws StoreException {
    List<Json> out = new ArrayList<>();
    for (FileLabel l : labels) {
      JsonObject.Builder label = JsonObject.builder()
          .put("path", l.path())
          .put("label", l.label())
          .put("version", l.version());
      if (!l.split().isEmpty()) {
        List<Json> shares = new ArrayList<>();
        l.split()
            .forEach(s -> shares.add(JsonObject.builder()
                .put("version", s.version())
                .put("weight", s.weight())
                .build()));
        label.put("split", new JsonArray(shares));
      }
      out.add(label.build());
    }
    return JsonObject.builder()
        .put("labels", new JsonArray(out))
        .put("protectedLabels", protections(store))
        .build();
  }

  private static JsonObject protections(PromptStore store) throws StoreException {
    JsonObject.Builder b = JsonObject.builder();
    store.labels().protections().forEach((label, scope) -> b.put(label, scope));
    return b.build();
  }

  /**
   * {@code GET /manage/v1/diff}: the unified diff between two versions of the one file {@code name}
   * names.
   */
  static JsonObject diff(PromptStore store, String name, int from, int to)
      throws ManageApi.Refused, StoreException {
    Set<String> paths = store.paths(name);
    if (paths.size() != 1) {
      throw new ManageApi.Refused(
          400,
          "'" + name + "' names " + paths.size() + " files; a diff is of one file: give its path");
    }
    String path = paths.iterator().next();
    String a = text(store.content(path, from));
    String b = text(store.content(path, to));
    String diff;
    try {
      diff = UnifiedDiff.of(
          "a/" + path + " (version " + from + ")", a, "b/" + path + " (version " + to + ")", b);
    } catch (IllegalArgumentException e) {
      throw new ManageApi.Refused(400, String.valueOf(e.getMessage()));
    }
    return JsonObject.builder()
        .put("path", path)
        .put("from", from)
        .put("to", to)
        .put("diff", diff)
        .build();
  }

  /**
   * {@code GET /manage/v1/usage}: the uses of the prompt {@code name} since {@code since}, one row
   * per version, label, client and outcome.
   */
  static JsonObject usage(String name, Instant since, List<UsageReport.Use> uses) {
    List<Json> rows = new ArrayList<>();
    for (UsageReport.Use u : uses) {
      rows.add(JsonObject.builder()
          .put("version", u.version())
          .put(
              "storeVersions",
              new JsonArray(u.storeVersions().stream()
                  .sorted()
                  .map(v -> (Json) JsonNumber.of(v))
                  .toList()))
          .put("label", u.label())
          .put("client", u.client())
          .put("outcome", u.outcome())
          .put("uses", u.uses())
          .put("totalMicros", u.totalMicros())
          .build());
    }
    return JsonObject.builder()
        .put("name", name)
        .put("since", since.toString())
        .put("rows", new JsonArray(rows))
        .build();
  }

  /** A deleted version compares as empty. */
  private static String text(byte @Nullable [] data) {
    return data == null ? "" : new String(data, StandardCharsets.UTF_8);
  }

  /** A move's answer: {@code {"moves": [...]}}. */
  static JsonObject moves(List<LabelMove> moves) {
    List<Json> out = new ArrayList<>();
    moves.forEach(m -> out.add(move(m)));
    return JsonObject.builder().put("moves", new JsonArray(out)).build();
  }

  private static JsonObject move(LabelMove m) {
    return JsonObject.builder()
        .put("path", m.path())
        .put("label", m.label())
        .put("from", m.from() == 0 ? JsonNull.INSTANCE : JsonNumber.of(m.from()))
        .put("to", m.to() == 0 ? JsonNull.INSTANCE : JsonNumber.of(m.to()))
        .put("libraryVersion", m.libraryVersion())
        .put("author", m.author())
        .put("time", m.time().toString())
        .put("split", m.split())
        .build();
  }
}
