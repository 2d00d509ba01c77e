package io.promptd.mcp.json;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A JSON object whose members keep their insertion order, so that encoded output is deterministic.
 *
 * @param members the members, in order
 */
public record JsonObject(Map<String, Json> members) implements Json {
  /** The empty object. */
  public static final JsonObject EMPTY = new JsonObject(Map.of());

  /** Copies the members, keeping their order; a null name or value is refused here rather than when written. */
  public JsonObject {
    LinkedHashMap<String, Json> copy = new LinkedHashMap<>(members);
    copy.forEach((name, value) -> {
      requireNonNull(name, "member name");
      requireNonNull(value, () -> "member '" + name + "' (use JsonNull.INSTANCE for JSON null)");
    });
    members = Collections.unmodifiableMap(copy);
  }

  /** Returns a builder for a new object. */
  public static Builder builder() {
    return new Builder();
  }

  /** The member named {@code name}, or null. */
  public @Nullable Json get(String name) {
    return members.get(name);
  }

  /** Whether a member named {@code name} exists (it may be JSON null). */
  public boolean has(String name) {
    return members.containsKey(name);
  }

  /** The number of members. */
  public int size() {
    return members.size();
  }

  /** Whether this object has no members. */
  public boolean isEmpty() {
    return members.isEmpty();
  }

  /** The member {@code name} if it is a string. */
  public Optional<String> string(String name) {
    return get(name) instanceof JsonString s ? Optional.of(s.value()) : Optional.empty();
  }

  /** The member {@code name} if it is an object. */
  public Optional<JsonObject> object(String name) {
    return get(name) instanceof JsonObject o ? Optional.of(o) : Optional.empty();
  }

  /** The member {@code name} if it is an array. */
  public Optional<JsonArray> array(String name) {
    return get(name) instanceof JsonArray a ? Optional.of(a) : Optional.empty();
  }

  /** Returns a builder that starts with this object's members. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.members.putAll(members);
    return b;
  }

  /** Builds a {@link JsonObject}; {@code null} values are skipped so optional fields need no {@code if}. */
  public static final class Builder {
    private final LinkedHashMap<String, Json> members = new LinkedHashMap<>();

    private Builder() {}

    /** Puts a member, or nothing when {@code value} is null. */
    public Builder put(String name, @Nullable Json value) {
      if (value != null) {
        members.put(name, value);
      }
      return this;
    }

    /** Puts a string member, or nothing when {@code value} is null. */
    public Builder put(String name, @Nullable String value) {
      return value == null ? this : put(name, new JsonString(value));
    }

    /** Puts an integer member. */
    public Builder put(String name, long value) {
      return put(name, JsonNumber.of(value));
    }

    /** Puts a boolean member. */
    public Builder put(String name, boolean value) {
      return put(name, Json.of(value));
    }

    /** Puts every member of {@code other}. */
    public Builder putAll(JsonObject other) {
      members.putAll(other.members());
      return this;
    }

    /** Removes a member. */
    public Builder remove(String name) {
      members.remove(name);
      return this;
    }

    /** Builds the object. */
    public JsonObject build() {
      return new JsonObject(members);
    }
  }
}
