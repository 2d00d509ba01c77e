package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.server.PromptDefinition;
import io.promptd.mcp.server.PromptSplit;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The A/B splits of one label, as plain data a source hands over (a store reads them from its
 * labels), and the one place they become the {@link PromptSplit}s a {@link Library} serves
 * ({@link #prompts}, for {@link Library#split}). Each version of a split prompt file is parsed in a
 * library of its own that holds that version and the files prompts use (partials, attachments,
 * {@code _folder.yaml}) as the label serves them, so that it renders as it would if the label
 * pointed at it. Every variant is served under the name of the split's first version (the one the
 * label's row points at). A split with a version that does not parse to one prompt is not served as
 * a split: everyone gets the first version, and a warning says why.
 *
 * @param label the label split
 * @param versions each split file's versions, in the order given, by path (kept in the order of the
 *     paths)
 */
@Stability(Stability.Tier.STABLE)
public record FileSplits(String label, Map<String, List<FileSplits.Version>> versions) {
  /**
   * The store's logger: the splits are a store's labels', and their warnings stay where they always
   * were.
   */
  private static final System.Logger LOG = System.getLogger("io.promptd.store");

  /**
   * One version of a split prompt file, as stored.
   *
   * @param version the file's version
   * @param weight its weight
   * @param content its bytes; not copied, so the caller must not change them afterwards
   * @param sha256 the SHA-256 of its bytes, in hexadecimal
   */
  @SuppressWarnings("ArrayRecordComponent") // never compared: the digest stands for the bytes
  public record Version(int version, int weight, byte[] content, String sha256) {}

  /** Copies the map (and each list), sorted by path. */
  public FileSplits {
    requireNonNull(label, "label");
    TreeMap<String, List<Version>> sorted = new TreeMap<>();
    requireNonNull(versions, "versions")
        .forEach((path, list) -> sorted.put(path, List.copyOf(list)));
    versions = Collections.unmodifiableMap(sorted);
  }

  /** Whether there is no split. */
  public boolean isEmpty() {
    return versions.isEmpty();
  }

  /**
   * The splits as the library serves them, by the name each is served under.
   *
   * @param served the files the label serves now, with their digests
   */
  public Map<String, PromptSplit> prompts(LibraryFiles served, LibraryOptions options) {
    requireNonNull(served, "served");
    requireNonNull(options, "options");
    if (versions.isEmpty()) {
      return Map.of();
    }
    Map<String, byte[]> used = new TreeMap<>();
    served.files().forEach((path, data) -> {
      if (!LibraryFiles.entry(path)) {
        used.put(path, data);
      }
    });
    Map<String, String> sha256 = served.sha256();
    Map<String, PromptSplit> out = new HashMap<>();
    versions.forEach((path, list) -> {
      try {
        PromptSplit split = split(label, path, list, used, sha256, options);
        out.put(split.variants().getFirst().definition().name(), split);
      } catch (IOException | IllegalStateException e) {
        LOG.log(
            Level.WARNING,
            "label '" + label + "' on " + path + ": the split is not served, everyone gets version "
                + list.getFirst().version() + " (" + e.getMessage() + ")");
      }
    });
    return out;
  }

  private static PromptSplit split(
      String label,
      String path,
      List<Version> versions,
      Map<String, byte[]> used,
      Map<String, String> sha256,
      LibraryOptions options)
      throws IOException {
    List<PromptSplit.Variant> variants = new ArrayList<>();
    String name = null;
    for (Version v : versions) {
      PromptDefinition d = parse(path, v, used, sha256, options);
      if (name == null) {
        name = d.name();
      } else if (!name.equals(d.name())) {
        Prompt p = d.prompt();
        d = new PromptDefinition(
            new Prompt(name, p.title(), p.description(), p.arguments(), p.icons(), p.meta()),
            d.renderer(),
            d.completer(),
            d.requiredScopes());
      }
      variants.add(new PromptSplit.Variant(v.sha256().substring(0, 12), v.weight(), d));
    }
    return new PromptSplit(label + "\0" + path, variants);
  }

  /** Version {@code v} of the prompt file at {@code path}, with the files prompts use. */
  private static PromptDefinition parse(
      String path,
      Version v,
      Map<String, byte[]> used,
      Map<String, String> sha256,
      LibraryOptions options)
      throws IOException {
    Map<String, byte[]> files = new TreeMap<>(used);
    files.put(path, v.content());
    Map<String, String> digests = new HashMap<>();
    files.keySet().forEach(p -> {
      String digest = sha256.get(p);
      if (digest != null) {
        digests.put(p, digest);
      }
    });
    digests.put(path, v.sha256());
    try (Library library =
        Library.open(LibrarySource.snapshot(new LibraryFiles(0, files, digests)), options)) {
      List<PromptDefinition> prompts = library.catalog().all();
      if (prompts.size() != 1) {
        throw new IllegalStateException(
            "version " + v.version() + " does not parse to one prompt; see promptd check");
      }
      return prompts.getFirst();
    }
  }
}
