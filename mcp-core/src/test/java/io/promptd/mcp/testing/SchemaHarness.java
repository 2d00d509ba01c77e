package io.promptd.mcp.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.promptd.mcp.protocol.ProtocolVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Checks a message against the official JSON schema of one protocol version: the JSON-RPC envelope,
 * the specific request, result or notification type, and — since the schemas leave objects open —
 * that every property is one the version's schema defines for that type (a {@code title} in a
 * 2025-03-26 prompt is a finding).
 *
 * <p>Other modules' tests use it through mcp-core's test-jar:
 *
 * <pre>{@code
 * SchemaHarness.of(ProtocolVersion.V2025_06_18).assertConforms(line, "prompts/list");
 * }</pre>
 *
 * <p>One deliberate exception: JSON-RPC 2.0 requires {@code "id": null} on an error answering input
 * whose id could not be read, while the MCP schemas type ids as string or integer. Such errors are
 * checked without their id.
 */
public final class SchemaHarness {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Map<ProtocolVersion, SchemaHarness> CACHE = new ConcurrentHashMap<>();

  private final ProtocolVersion version;
  private final JsonNode root;
  private final String defsKey;
  private final JsonSchemaFactory factory;
  private final Map<JsonNode, JsonSchema> compiled =
      Collections.synchronizedMap(new IdentityHashMap<>());
  private final Map<String, JsonNode> synthetic = new ConcurrentHashMap<>();

  private SchemaHarness(ProtocolVersion version) {
    this.version = version;
    Path file = SpecDir.path().resolve(version.id()).resolve("schema.json");
    try {
      this.root = MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    this.defsKey = root.has("$defs") ? "$defs" : "definitions";
    this.factory = JsonSchemaFactory.getInstance(
        root.path("$schema").asText().contains("2020-12")
            ? SpecVersion.VersionFlag.V202012
            : SpecVersion.VersionFlag.V7);
  }

  /** The harness for {@code version}; schemas are loaded once per version. */
  public static SchemaHarness of(ProtocolVersion version) {
    return CACHE.computeIfAbsent(version, SchemaHarness::new);
  }

  /** The version whose schema this harness checks against. */
  public ProtocolVersion version() {
    return version;
  }

  /** Whether this version's schema defines {@code definition} (e.g. {@code "AudioContent"}). */
  public boolean defines(String definition) {
    return root.path(defsKey).has(definition);
  }

  /**
   * Fails with every problem {@link #check} finds.
   *
   * @param json one emitted message
   * @param answering the method of the request a result answers; null for notifications and errors
   */
  public void assertConforms(String json, @Nullable String answering) {
    List<String> problems = check(json, answering);
    if (!problems.isEmpty()) {
      throw new AssertionError("not a valid " + version.id() + " message: "
          + String.join("; ", problems) + "\n  message: " + json);
    }
  }

  /**
   * Every problem with one emitted message (a JSON array is checked as a batch response); empty
   * when it conforms.
   *
   * @param json the message as sent
   * @param answering the method of the request a result answers; for a batch, of every result in it
   *     (null: unknown)
   */
  public List<String> check(String json, @Nullable String answering) {
    JsonNode message = parse(json);
    if (message.isArray()) {
      List<String> problems = new ArrayList<>();
      if (!defines("JSONRPCBatchResponse")) {
        problems.add("JSON-RPC batches are not defined in " + version.id());
      }
      for (JsonNode element : message) {
        problems.addAll(checkMessage(element, answering));
      }
      return problems;
    }
    return checkMessage(message, answering);
  }

  /**
   * Every problem with {@code json} as an instance of the named definition, including undefined
   * properties.
   */
  public List<String> checkAs(String definition, String json) {
    return checkNode(ref(definition), parse(json), "$");
  }

  private List<String> checkMessage(JsonNode message, @Nullable String answering) {
    if (!message.isObject()) {
      return List.of("a message must be a JSON object, not " + message.getNodeType());
    }
    if (message.has("method")) {
      String method = message.path("method").asText();
      boolean request = message.has("id");
      String definition = request ? Definitions.request(method) : Definitions.notification(method);
      if (definition == null || !defines(definition)) {
        return List.of((request ? "request " : "notification ") + method + " is not one "
            + version.id() + " defines");
      }
      JsonNode envelope = ref(request ? "JSONRPCRequest" : "JSONRPCNotification");
      List<String> problems = validate(allOf(envelope, ref(definition)), message, "$");
      List<String> undefined = new ArrayList<>();
      new PropertyWalker(this, version.id()).walk(message, ref(definition), "$", false, undefined);
      // Legacy schemas leave the envelope and params._meta to the generic
      // JSONRPCRequest/JSONRPCNotification.
      undefined.removeIf(p ->
          p.startsWith("$.jsonrpc:") || p.startsWith("$.id:") || p.startsWith("$.params._meta:"));
      problems.addAll(undefined);
      return problems;
    }
    if (message.has("error")) {
      return checkError(message);
    }
    String envelope =
        defines("JSONRPCResultResponse") ? "JSONRPCResultResponse" : "JSONRPCResponse";
    List<String> problems = new ArrayList<>(checkNode(ref(envelope), message, "$"));
    String request = answering == null ? null : Definitions.request(answering);
    if (request != null && !defines(request)) {
      problems.add(answering + " is not a method " + version.id()
          + " defines, yet it was answered with a result");
    }
    String definition = answering == null ? null : Definitions.result(answering);
    if (definition == null || !defines(definition)) {
      problems.add(
          "cannot check the result of " + answering + ": no result type for it in " + version.id());
    } else if (message.get("result") instanceof ObjectNode result) {
      problems.addAll(checkNode(ref(definition), result, "$.result"));
      if (definition.equals("EmptyResult")) {
        problems.addAll(emptyResultProblems(result));
      }
    }
    return problems;
  }

  private List<String> checkError(JsonNode message) {
    String envelope = defines("JSONRPCErrorResponse") ? "JSONRPCErrorResponse" : "JSONRPCError";
    JsonNode schema = ref(envelope);
    int code = message.path("error").path("code").asInt();
    String specific = version.isModern() ? Definitions.modernError(code) : null;
    if (specific != null
        && defines(specific)
        && resolve(ref(specific)).path("properties").has("jsonrpc")) {
      schema = allOf(
          schema, ref(specific)); // a whole error response, e.g. UnsupportedProtocolVersionError
    } else if (specific != null && defines(specific)) {
      List<String> problems =
          new ArrayList<>(checkNode(ref(specific), message.path("error"), "$.error"));
      problems.addAll(checkWithoutNullId(message, schema));
      return problems;
    }
    return checkWithoutNullId(message, schema);
  }

  private List<String> checkWithoutNullId(JsonNode message, JsonNode schema) {
    if (!message.path("id").isNull()) {
      return checkNode(schema, message, "$");
    }
    List<String> problems = new ArrayList<>();
    ObjectNode withoutId = ((ObjectNode) message).deepCopy();
    withoutId.remove("id");
    for (String problem : checkNode(schema, withoutId, "$")) {
      if (!problem.contains("required property 'id'") && !problem.contains("$.id")) {
        problems.add(problem);
      }
    }
    return problems;
  }

  private List<String> emptyResultProblems(JsonNode result) {
    List<String> problems = new ArrayList<>();
    result.fieldNames().forEachRemaining(name -> {
      if (!name.equals("_meta") && !(name.equals("resultType") && version.isModern())) {
        problems.add(
            "$.result." + name + ": an empty result holds no '" + name + "' in " + version.id());
      }
    });
    return problems;
  }

  private List<String> checkNode(JsonNode schema, JsonNode instance, String path) {
    List<String> problems = validate(schema, instance, path);
    new PropertyWalker(this, version.id()).walk(instance, schema, path, false, problems);
    return problems;
  }

  private List<String> validate(JsonNode schema, JsonNode instance, String path) {
    List<String> problems = new ArrayList<>();
    for (ValidationMessage m : compile(schema).validate(instance)) {
      problems.add(relocate(m.getMessage(), path));
    }
    return problems;
  }

  private static String relocate(String message, String path) {
    return path.equals("$") || !message.startsWith("$") ? message : path + message.substring(1);
  }

  /**
   * Whether {@code instance} validates against {@code schema} (a node of this version's schema
   * document).
   */
  boolean matches(JsonNode schema, JsonNode instance) {
    return compile(schema).validate(instance).isEmpty();
  }

  /** Follows a local {@code $ref}. */
  JsonNode resolve(JsonNode schema) {
    JsonNode target = schema;
    for (int hops = 0; target.has("$ref") && hops < 32; hops++) {
      String ref = target.get("$ref").asText();
      if (!ref.startsWith("#")) {
        throw new IllegalStateException(
            "non-local $ref " + ref + " in the " + version.id() + " schema");
      }
      target = root.at(ref.substring(1));
    }
    return target;
  }

  private JsonSchema compile(JsonNode schema) {
    return compiled.computeIfAbsent(schema, s -> {
      ObjectNode wrapper = MAPPER.createObjectNode();
      wrapper.put("$schema", root.path("$schema").asText());
      wrapper.set(defsKey, root.get(defsKey));
      wrapper.putArray("allOf").add(s);
      return factory.getSchema(wrapper);
    });
  }

  private JsonNode ref(String definition) {
    if (!defines(definition)) {
      throw new IllegalArgumentException(version.id() + " defines no '" + definition + "'");
    }
    return synthetic.computeIfAbsent(
        definition, d -> MAPPER.createObjectNode().put("$ref", "#/" + defsKey + "/" + d));
  }

  /** Both schemas at once; cached so that its compiled form is reused. */
  private JsonNode allOf(JsonNode a, JsonNode b) {
    String key = a.path("$ref").asText() + " & " + b.path("$ref").asText();
    return synthetic.computeIfAbsent(key, k -> {
      ObjectNode node = MAPPER.createObjectNode();
      node.putArray("allOf").add(a).add(b);
      return node;
    });
  }

  private static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new AssertionError("emitted text is not JSON: " + json, e);
    }
  }
}
