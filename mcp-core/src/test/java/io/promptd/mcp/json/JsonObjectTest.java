package io.promptd.mcp.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An object's members in their compact form ({@link Members}): insertion order, replacement in
 * place, removal, look-ups past the scanned size, equality with any map, builders that never change
 * an object already built, and a reader that finds a duplicate name in a huge object in linear
 * time.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JsonObjectTest {
  @Test
  void membersKeepTheirOrderAndAReplacedMemberItsPlace() {
    JsonObject o = JsonObject.builder()
        .put("b", 1)
        .put("a", "x")
        .put("c", true)
        .put("a", "y")
        .build();
    assertThat(new ArrayList<>(o.members().keySet())).containsExactly("b", "a", "c");
    assertThat(o.string("a")).hasValue("y");
    assertThat(JsonCodec.write(o)).isEqualTo("{\"b\":1,\"a\":\"y\",\"c\":true}");
    JsonObject removed = o.toBuilder().remove("b").remove("missing").build();
    assertThat(JsonCodec.write(removed)).isEqualTo("{\"a\":\"y\",\"c\":true}");
    assertThat(o.size()).isEqualTo(3); // the object the builder started from is unchanged
  }

  @Test
  void aBuilderNeverChangesAnObjectItBuilt() {
    JsonObject.Builder b = JsonObject.builder().put("a", 1);
    JsonObject first = b.build();
    JsonObject second = b.put("b", 2).remove("a").build();
    assertThat(JsonCodec.write(first)).isEqualTo("{\"a\":1}");
    assertThat(JsonCodec.write(second)).isEqualTo("{\"b\":2}");
  }

  @Test
  void manyMembersAreFoundRemovedAndEqualToTheSameMap() {
    JsonObject.Builder b = JsonObject.builder();
    Map<String, Json> expected = new LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      b.put("k" + i, i);
      expected.put("k" + i, JsonNumber.of(i));
    }
    b.remove("k3");
    expected.remove("k3");
    b.put("k5", "five");
    expected.put("k5", new JsonString("five"));
    JsonObject o = b.build();
    assertThat(o.members()).isEqualTo(expected);
    assertThat(expected).isEqualTo(o.members());
    assertThat(o.members().hashCode()).isEqualTo(expected.hashCode());
    assertThat(o).isEqualTo(new JsonObject(expected));
    for (int i = 0; i < 40; i++) {
      assertThat(o.has("k" + i)).as("k" + i).isEqualTo(i != 3);
    }
    assertThat(new ArrayList<>(o.members().keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
    assertThat(new ArrayList<>(o.members().values())).isEqualTo(new ArrayList<>(expected.values()));
  }

  @Test
  void theMembersCannotBeChangedThroughTheMapInterface() {
    JsonObject o = JsonObject.builder().put("a", 1).build();
    assertThatThrownBy(() -> o.members().put("b", JsonNull.INSTANCE))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> o.members().entrySet().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> o.members().keySet().iterator().remove())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aDuplicateNameInAHugeObjectIsFoundInLinearTime() {
    StringBuilder json = new StringBuilder("{");
    for (int i = 0; i < 200_000; i++) {
      json.append("\"m").append(i).append("\":0,");
    }
    json.append("\"m7\":1}");
    assertThatThrownBy(() -> JsonCodec.parse(json.toString()))
        .hasMessageContaining("duplicate member name 'm7'");
    List<String> names =
        new ArrayList<>(((JsonObject) JsonCodec.parse(json.substring(0, json.length() - 8) + "}"))
            .members()
            .keySet());
    assertThat(names).hasSize(200_000).startsWith("m0", "m1").endsWith("m199999");
  }
}
