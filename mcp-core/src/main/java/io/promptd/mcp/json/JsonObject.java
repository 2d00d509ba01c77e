package io.promptd.mcp.json;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A JSON object whose members keep their insertion order, so that encoded output is deterministic.
 *
 * @param members the members, in order
 */
@Stability(Stability.Tier.STABLE)
public record JsonObject(Map<String, Json> members) implements Json {
  /** The empty object. */
  public static final JsonObject EMPTY = new JsonObject(Members.EMPTY);

  /**
   * Copies the members, keeping their order; a null name or value is refused here rather than when
   * written.
   */
  public JsonObject {
    if (!(members instanceof Members)) {
      members.forEach(JsonObject::check);
      members = Members.copyOf(members);
    }
  }

  /**
   * An object over {@code fresh}, which nobody else holds or changes: no copy. The codec and the
   * builder use it; on the request path the copy was a tenth of the CPU.
   */
  static JsonObject adopt(Members fresh) {
    return new JsonObject(fresh);
  }

  private static void check(String name, Json value) {
    requireNonNull(name, "member name");
    requireNonNull(value, () -> "member '" + name + "' (use JsonNull.INSTANCE for JSON null)");
  }

  /** Returns a builder for a new object. */
  public static Builder builder() {
    return new Builder(Members.EMPTY);
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
    return new Builder((Members) members);
  }

  /**
   * Builds a {@link JsonObject}; {@code null} values are skipped so optional fields need no
   * {@code if}.
   */
  public static final class Builder {
    /**
     * The members so far; shared (with an object built, or the one this builder started from) until
     * changed.
     */
    private Members members;

    private boolean shared;

    private Builder(Members start) {
      members = start;
      shared = true;
    }

    private Members members() {
      if (shared) {
        members = members.copy(4);
        shared = false;
      }
      return members;
    }

    /** Puts a member, or nothing when {@code value} is null. */
    public Builder put(String name, @Nullable Json value) {
      requireNonNull(name, "member name");
      if (value != null) {
        members().set(name, value);
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
      Members m = members();
      other.members().forEach(m::set);
      return this;
    }

    /** Removes a member. */
    public Builder remove(String name) {
      if (members.containsKey(name)) {
        members().delete(name);
      }
      return this;
    }

    /** Builds the object. */
    public JsonObject build() {
      shared = true;
      return adopt(members);
    }
  }
}
