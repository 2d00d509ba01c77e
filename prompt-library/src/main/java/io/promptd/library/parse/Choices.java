package io.promptd.library.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A list of values ({@code enum} or {@code examples}), either flat or keyed by the value of the
 * argument it depends on. Keys match case-insensitively; the key {@code "*"} is the fallback for
 * values not listed.
 *
 * @param all every value, in order, without duplicates
 * @param byKey values per lower-cased key of the other argument; empty for a flat list
 */
public record Choices(List<String> all, Map<String, List<String>> byKey) {
  /** No values. */
  public static final Choices NONE = new Choices(List.of(), Map.of());

  /** Copies the lists. */
  public Choices {
    all = List.copyOf(Shared.strings(all));
    byKey = Map.copyOf(byKey);
  }

  /** A flat list. */
  public static Choices flat(List<String> values) {
    return new Choices(new ArrayList<>(new LinkedHashSet<>(values)), Map.of());
  }

  /** Values keyed by the other argument's value; {@code keyed} keeps document order. */
  public static Choices keyed(Map<String, List<String>> keyed) {
    LinkedHashSet<String> all = new LinkedHashSet<>();
    Map<String, List<String>> byKey = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : keyed.entrySet()) {
      all.addAll(e.getValue());
      byKey.put(e.getKey().toLowerCase(Locale.ROOT), List.copyOf(e.getValue()));
    }
    return new Choices(new ArrayList<>(all), byKey);
  }

  /** Whether there are no values. */
  public boolean isEmpty() {
    return all.isEmpty();
  }

  /** Whether the values depend on another argument. */
  public boolean isKeyed() {
    return !byKey.isEmpty();
  }

  /**
   * The values that apply when the other argument is {@code key}: its own list, else the
   * {@code "*"} list, else all values. A null key (the other argument not given yet) means all
   * values.
   */
  public List<String> forKey(@Nullable String key) {
    if (key == null || byKey.isEmpty()) {
      return all;
    }
    List<String> own = byKey.get(key.toLowerCase(Locale.ROOT));
    if (own != null) {
      return own;
    }
    List<String> fallback = byKey.get("*");
    return fallback != null ? fallback : all;
  }
}
