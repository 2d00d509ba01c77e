package io.promptd.mcp.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Walks an instance beside its schema and reports properties the schema does not define. The MCP
 * schemas leave objects open (no {@code additionalProperties: false}), so validation alone cannot
 * catch a field from a newer version; this walker treats an object as closed when its schema lists
 * {@code properties} and says nothing of {@code additionalProperties}. {@code _meta} objects are
 * open by definition, but their known keys are still walked.
 */
final class PropertyWalker {
  private final SchemaHarness harness;
  private final String versionId;

  PropertyWalker(SchemaHarness harness, String versionId) {
    this.harness = harness;
    this.versionId = versionId;
  }

  void walk(JsonNode instance, JsonNode schema, String path, boolean meta, List<String> problems) {
    List<JsonNode> leaves = new ArrayList<>();
    expand(schema, instance, leaves, 0);
    if (leaves.isEmpty()) {
      return; // no branch matched: the validator has already said why
    }
    if (instance.isObject()) {
      walkObject(instance, leaves, path, meta, problems);
    } else if (instance.isArray()) {
      for (JsonNode leaf : leaves) {
        JsonNode items = leaf.get("items");
        if (items != null && items.isObject()) {
          for (int i = 0; i < instance.size(); i++) {
            walk(instance.get(i), items, path + "[" + i + "]", false, problems);
          }
        }
      }
    }
  }

  private void walkObject(
      JsonNode instance, List<JsonNode> leaves, String path, boolean meta, List<String> problems) {
    Map<String, List<JsonNode>> properties = new LinkedHashMap<>();
    boolean open = meta;
    for (JsonNode leaf : leaves) {
      JsonNode declared = leaf.get("properties");
      if (declared != null) {
        declared
            .fields()
            .forEachRemaining(e ->
                properties.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
      }
      JsonNode additional = leaf.get("additionalProperties");
      if (additional != null && !(additional.isBoolean() && !additional.booleanValue())) {
        open = true;
      }
      if (declared == null && additional == null && leaf.get("patternProperties") == null) {
        open = true; // a free-form object such as error data or a JSON object value
      }
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = instance.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      String name = field.getKey();
      List<JsonNode> schemas = properties.get(name);
      String child = path + "." + name;
      if (schemas != null) {
        for (JsonNode s : schemas) {
          walk(field.getValue(), s, child, name.equals("_meta"), problems);
        }
      } else if (!open) {
        problems.add(child + ": property '" + name + "' is not defined here by the " + versionId
            + " schema");
      }
    }
  }

  /**
   * Collects the schemas that apply to {@code instance}: follows $ref and allOf, and anyOf/oneOf
   * branches it matches.
   */
  private void expand(JsonNode schema, JsonNode instance, List<JsonNode> out, int depth) {
    if (depth > 64 || !schema.isObject()) {
      return;
    }
    if (schema.has("$ref")) {
      expand(harness.resolve(schema), instance, out, depth + 1);
    }
    for (JsonNode s : schema.path("allOf")) {
      expand(s, instance, out, depth + 1);
    }
    for (String union : List.of("anyOf", "oneOf")) {
      for (JsonNode s : schema.path(union)) {
        if (harness.matches(s, instance)) {
          expand(s, instance, out, depth + 1);
        }
      }
    }
    boolean combinator =
        schema.has("$ref") || schema.has("allOf") || schema.has("anyOf") || schema.has("oneOf");
    if (!combinator
        || schema.has("properties")
        || schema.has("additionalProperties")
        || schema.has("items")) {
      out.add(schema);
    }
  }
}
