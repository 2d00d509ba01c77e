package io.promptd.mcp.json;

import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The members of a {@link JsonObject}, in insertion order, as two arrays: names and values. Most
 * objects on the wire and in a library have a handful of members, where a scan of the names beats
 * hashing and costs a fraction of a {@link java.util.LinkedHashMap}'s memory (two arrays instead of
 * a table and an entry per member); past {@value #SCAN} members a name-to-position index keeps
 * look-ups constant, so one caller's huge object costs no quadratic time. Read-only through the
 * {@link Map} interface; only the builder and the reader add or remove, before the object is
 * shared.
 */
final class Members extends AbstractMap<String, Json> {
  /** Up to this many members, names are found by a scan. */
  private static final int SCAN = 8;

  static final Members EMPTY = new Members(0);

  private String[] names;
  private Json[] values;
  private int size;
  private @Nullable HashMap<String, Integer> index;

  Members(int capacity) {
    names = new String[capacity];
    values = new Json[capacity];
  }

  /** A copy of {@code other}'s members, in its order. */
  static Members copyOf(Map<String, Json> other) {
    Members m = new Members(other.size());
    other.forEach(m::set);
    return m;
  }

  /** A copy of these members, with room for {@code extra} more. */
  Members copy(int extra) {
    Members m = new Members(size + extra);
    System.arraycopy(names, 0, m.names, 0, size);
    System.arraycopy(values, 0, m.values, 0, size);
    m.size = size;
    if (index != null) {
      m.index = new HashMap<>(index);
    }
    return m;
  }

  /**
   * Sets {@code name} to {@code value}: in its place when present, else last; returns the value it
   * replaced.
   */
  @Nullable
  Json set(String name, Json value) {
    int at = find(name);
    if (at >= 0) {
      Json old = values[at];
      values[at] = value;
      return old;
    }
    if (size == names.length) {
      int grown = Math.max(4, size * 2);
      names = Arrays.copyOf(names, grown);
      values = Arrays.copyOf(values, grown);
    }
    names[size] = name;
    values[size] = value;
    HashMap<String, Integer> ix = index;
    if (ix != null) {
      ix.put(name, size);
    } else if (size + 1 > SCAN) {
      ix = new HashMap<>();
      for (int i = 0; i <= size; i++) {
        ix.put(names[i], i);
      }
      index = ix;
    }
    size++;
    return null;
  }

  /** Removes {@code name}; the members after it keep their order. */
  void delete(String name) {
    int at = find(name);
    if (at < 0) {
      return;
    }
    System.arraycopy(names, at + 1, names, at, size - at - 1);
    System.arraycopy(values, at + 1, values, at, size - at - 1);
    size--;
    names[size] = ""; // the slot past the end holds nothing of the removed member's
    values[size] = JsonNull.INSTANCE;
    if (index != null) {
      index.remove(name);
      for (int i = at; i < size; i++) {
        index.put(names[i], i);
      }
    }
  }

  private int find(@Nullable Object name) {
    HashMap<String, Integer> ix = index;
    if (ix != null) {
      Integer at = ix.get(name);
      return at == null ? -1 : at;
    }
    for (int i = 0; i < size; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public @Nullable Json get(@Nullable Object key) {
    int at = find(key);
    return at < 0 ? null : values[at];
  }

  @Override
  public boolean containsKey(@Nullable Object key) {
    return find(key) >= 0;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isEmpty() {
    return size == 0;
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super Json> action) {
    for (int i = 0; i < size; i++) {
      action.accept(names[i], values[i]);
    }
  }

  @Override
  public Set<Map.Entry<String, Json>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, Json>> iterator() {
        return new Walk<>() {
          @Override
          Map.Entry<String, Json> at(int i) {
            return new SimpleImmutableEntry<>(names[i], values[i]);
          }
        };
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  @Override
  public Set<String> keySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<String> iterator() {
        return new Walk<>() {
          @Override
          String at(int i) {
            return names[i];
          }
        };
      }

      @Override
      public int size() {
        return size;
      }

      @Override
      public boolean contains(@Nullable Object o) {
        return find(o) >= 0;
      }
    };
  }

  @Override
  public Collection<Json> values() {
    return new AbstractCollection<>() {
      @Override
      public Iterator<Json> iterator() {
        return new Walk<>() {
          @Override
          Json at(int i) {
            return values[i];
          }
        };
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  /** A read-only walk over the members, in order. */
  private abstract class Walk<T> implements Iterator<T> {
    private int next;

    abstract T at(int i);

    @Override
    public boolean hasNext() {
      return next < size;
    }

    @Override
    public T next() {
      if (next >= size) {
        throw new NoSuchElementException();
      }
      return at(next++);
    }
  }
}
