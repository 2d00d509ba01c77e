package io.promptd.library.parse.template;

import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.Template;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The only way templates see data: keys of maps. jmustache's default collector reads fields and
 * calls methods by reflection, so {@code {{x.bytes}}} would call {@code String.getBytes()}; this
 * one finds nothing on anything but a map, and iterates nothing but lists.
 */
final class MapOnlyCollector implements Mustache.Collector {
  static final MapOnlyCollector INSTANCE = new MapOnlyCollector();

  private static final Mustache.VariableFetcher MAP_KEY = (ctx, name) -> {
    Map<?, ?> map = (Map<?, ?>) ctx;
    Object value = map.get(name);
    return value != null || map.containsKey(name) ? value : Template.NO_FETCHER_FOUND;
  };

  private static final Map<Object, Object> SHARED_CACHE = new ConcurrentHashMap<>();

  private MapOnlyCollector() {}

  @Override
  public @Nullable Iterator<?> toIterator(Object value) {
    return value instanceof List<?> list ? list.iterator() : null;
  }

  @Override
  public Mustache.@Nullable VariableFetcher createFetcher(Object ctx, String name) {
    return ctx instanceof Map<?, ?> ? MAP_KEY : null;
  }

  @Override
  @SuppressWarnings(
      // One map serves every key and value type jmustache asks for; it only stores its own
      "unchecked")
  public <K, V> Map<K, V> createFetcherCache() {
    // A fetcher here depends only on the context's class, so every template can share one cache
    // instead of keeping its own map (a large library has hundreds of thousands of templates).
    // Concurrent: many threads render at once.
    return (Map<K, V>) SHARED_CACHE;
  }
}
