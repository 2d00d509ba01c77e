package io.promptd.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.InputFormat;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.jsonrpc.ErrorResponse;
import io.promptd.mcp.jsonrpc.Request;
import io.promptd.mcp.jsonrpc.RequestId;
import io.promptd.mcp.jsonrpc.Response;
import io.promptd.mcp.jsonrpc.ResultResponse;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.protocol.SkillResource;
import io.promptd.mcp.spi.Caller;
import io.promptd.mcp.spi.Incoming;
import io.promptd.mcp.spi.ServerSession;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Skills extension's methods: shapes validated against the schema written from its
 * specification.
 */
class SkillsFeatureTest {
  private static final String DIGEST = "sha256:" + "0123456789abcdef".repeat(4);

  private static final ResourceProvider NO_FILES = new ResourceProvider() {
    @Override
    public List<Resource> resources() {
      return List.of();
    }

    @Override
    public Optional<List<ResourceContents>> read(String uri) {
      return Optional.empty();
    }
  };

  private final Fixture provider = new Fixture();

  @Test
  void modernCapabilitiesDeclareTheExtensionAndLegacyOnesDoNot() {
    McpServer server = McpServer.builder().resources(NO_FILES).skills(provider).build();
    ServerSession session = server.openSession(m -> {});
    JsonObject discover = result(session.handle(modern(1, "server/discover", ""), m -> {}));
    assertThat(JsonCodec.write(discover.object("capabilities").orElseThrow()))
        .contains("\"extensions\":{\"io.modelcontextprotocol/skills\":{}}")
        .contains("\"resources\":");
    JsonObject init = result(session.handle(
        request(
            2,
            "initialize",
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"),
        m -> {}));
    assertThat(JsonCodec.write(init)).doesNotContain("extensions");
    Response legacyList = session.handle(request(3, "skills/list", "{}"), m -> {});
    assertThat(((ErrorResponse) legacyList).code()).isEqualTo(-32601);
  }

  @Test
  void listPagesWholeEntriesAndGetAnswersOneOrInvalidParams() {
    McpServer server =
        McpServer.builder().resources(NO_FILES).skills(provider).pageSize(2).build();
    ServerSession session = server.openSession(m -> {});
    JsonObject first =
        valid("ListSkillsResult", session.handle(modern(1, "skills/list", ""), m -> {}));
    assertThat(JsonCodec.write(first))
        .contains("\"uri\":\"skill://acme/refunds/SKILL.md\",\"frontmatter\":{\"name\":\"refunds\","
            + "\"description\":\"Refund requests\",\"license\":\"MIT\",\"metadata\":{\"v\":2}}")
        .contains("\"resources\":[{\"uri\":\"skill://acme/refunds/SKILL.md\",\"digest\":\"" + DIGEST
            + "\",\"size\":12}")
        .contains("\"ttlMs\":10000,\"cacheScope\":\"public\"");
    String cursor = first.string("nextCursor").orElseThrow();
    JsonObject second = valid(
        "ListSkillsResult",
        session.handle(modern(2, "skills/list", "\"cursor\":\"" + cursor + "\""), m -> {}));
    assertThat(second.array("skills").orElseThrow().size()).isEqualTo(1);
    assertThat(JsonCodec.write(second)).contains("\"resources\":\"dynamic\"");
    assertThat(second.has("nextCursor")).isFalse();
    JsonObject got = valid(
        "GetSkillResult",
        session.handle(modern(3, "skills/get", "\"uri\":\"skill://git/SKILL.md\""), m -> {}));
    assertThat(JsonCodec.write(got.object("skill").orElseThrow()))
        .isEqualTo("{\"uri\":\"skill://git/SKILL.md\",\"frontmatter\":{\"name\":\"git\","
            + "\"description\":\"Git conventions\"},\"resources\":[{\"uri\":\"skill://git/SKILL.md\","
            + "\"digest\":\"" + DIGEST + "\",\"size\":3}]}");
    for (String uri : List.of("skill://git/other.md", "skill://none/SKILL.md")) {
      Response missing =
          session.handle(modern(4, "skills/get", "\"uri\":\"" + uri + "\""), m -> {});
      assertThat(((ErrorResponse) missing).code()).as(uri).isEqualTo(-32602);
    }
  }

  @Test
  void aSkillTheCallerMayNotSeeIsUnknownEverywhere() {
    McpServer server = McpServer.builder().resources(NO_FILES).skills(provider).build();
    ServerSession session = server.openSession(m -> {});
    Caller reader = Caller.authenticated("u", Set.of("read"));
    JsonObject list = result(as(session, modern(1, "skills/list", ""), reader));
    assertThat(JsonCodec.write(list))
        .doesNotContain("acme/refunds")
        .contains("\"cacheScope\":\"private\"");
    Response hidden =
        as(session, modern(2, "skills/get", "\"uri\":\"skill://acme/refunds/SKILL.md\""), reader);
    assertThat(((ErrorResponse) hidden).code()).isEqualTo(-32602);
    assertThat(((ErrorResponse) hidden).message())
        .isEqualTo("Unknown skill: skill://acme/refunds/SKILL.md");
  }

  @Test
  void directoriesAreReadOnlyFromAProviderThatDeclaresIt() {
    ServerSession plain =
        McpServer.builder().resources(NO_FILES).skills(provider).build().openSession(m -> {});
    Response unknown =
        plain.handle(modern(1, "resources/directory/read", "\"uri\":\"skill://git\""), m -> {});
    assertThat(((ErrorResponse) unknown).code()).isEqualTo(-32601);
    SkillProvider withDirectories = new Fixture() {
      @Override
      public boolean directoryRead() {
        return true;
      }

      @Override
      public Optional<List<Resource>> children(String uri, Caller caller) {
        return uri.equals("skill://git")
            ? Optional.of(List.of(
                Resource.of("skill://git/SKILL.md", "git", "Git conventions", "text/markdown"),
                Resource.of("skill://git/scripts", "scripts", null, "inode/directory")))
            : Optional.empty();
      }
    };
    ServerSession session = McpServer.builder()
        .resources(NO_FILES)
        .skills(withDirectories)
        .pageSize(1)
        .build()
        .openSession(m -> {});
    JsonObject discover = result(session.handle(modern(2, "server/discover", ""), m -> {}));
    assertThat(JsonCodec.write(discover))
        .contains("\"extensions\":{\"io.modelcontextprotocol/skills\":{\"directoryRead\":true}}");
    JsonObject first = valid(
        "ReadResourceDirectoryResult",
        session.handle(modern(3, "resources/directory/read", "\"uri\":\"skill://git\""), m -> {}));
    assertThat(JsonCodec.write(first.array("resources").orElseThrow()))
        .isEqualTo(
            "[{\"uri\":\"skill://git/SKILL.md\",\"name\":\"git\",\"description\":\"Git conventions\","
                + "\"mimeType\":\"text/markdown\"}]");
    String cursor = first.string("nextCursor").orElseThrow();
    JsonObject second = valid(
        "ReadResourceDirectoryResult",
        session.handle(
            modern(
                4,
                "resources/directory/read",
                "\"uri\":\"skill://git\",\"cursor\":\"" + cursor + "\""),
            m -> {}));
    assertThat(JsonCodec.write(second)).contains("\"mimeType\":\"inode/directory\"");
    Response wrongListing =
        session.handle(modern(5, "skills/list", "\"cursor\":\"" + cursor + "\""), m -> {});
    assertThat(((ErrorResponse) wrongListing).code()).isEqualTo(-32602);
    Response notADirectory = session.handle(
        modern(6, "resources/directory/read", "\"uri\":\"skill://git/SKILL.md\""), m -> {});
    assertThat(((ErrorResponse) notADirectory).code()).isEqualTo(-32602);
  }

  @Test
  void withoutAProviderTheMethodsAreUnknown() {
    ServerSession session = McpServer.builder().build().openSession(m -> {});
    assertThat(((ErrorResponse) session.handle(modern(1, "skills/list", ""), m -> {})).code())
        .isEqualTo(-32601);
    JsonObject discover = result(session.handle(modern(2, "server/discover", ""), m -> {}));
    assertThat(JsonCodec.write(discover)).doesNotContain("extensions");
  }

  private static Request request(long id, String method, String params) {
    return new Request(RequestId.of(id), method, (JsonObject) JsonCodec.parse(params));
  }

  private static Request modern(long id, String method, String members) {
    String meta = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
        + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    return request(id, method, "{" + (members.isEmpty() ? "" : members + ",") + meta + "}");
  }

  private static Response as(ServerSession session, Request r, Caller caller) {
    return Objects.requireNonNull(
        session.receive(new Incoming.Single(r), caller).run(m -> {}).response());
  }

  private static JsonObject result(Response r) {
    assertThat(r).isInstanceOf(ResultResponse.class);
    return ((ResultResponse) r).result();
  }

  private static JsonObject valid(String type, Response r) {
    JsonObject result = result(r);
    String json = JsonCodec.write(result);
    Set<ValidationMessage> errors = schema(type).validate(json, InputFormat.JSON);
    assertThat(errors).as("%s: %s", type, json).isEmpty();
    return result;
  }

  /**
   * The extension's schema with a root {@code $ref} to one type, so that every reference resolves.
   */
  static JsonSchema schema(String type) {
    try (InputStream in =
        SkillsFeatureTest.class.getResourceAsStream("/ext-skills/skills.schema.json")) {
      JsonObject root =
          (JsonObject) JsonCodec.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      String wrapped =
          JsonCodec.write(root.toBuilder().put("$ref", "#/$defs/" + type).build());
      return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(wrapped);
    } catch (IOException | NullPointerException e) {
      throw new AssertionError("the skills schema is not on the test classpath", e);
    }
  }

  /** Three skills, one dynamic; {@code acme/refunds} needs scope "admin". */
  private static class Fixture implements SkillProvider {
    @Override
    public List<Skill> skills() {
      List<Skill> all = new ArrayList<>();
      all.add(new Skill(
          "skill://acme/refunds/SKILL.md",
          (JsonObject) JsonCodec.parse("{\"name\":\"refunds\",\"description\":\"Refund requests\","
              + "\"license\":\"MIT\",\"metadata\":{\"v\":2}}"),
          List.of(
              new SkillResource("skill://acme/refunds/SKILL.md", DIGEST, 12),
              new SkillResource("skill://acme/refunds/examples/a.md", DIGEST, 0))));
      all.add(new Skill(
          "skill://git/SKILL.md",
          (JsonObject) JsonCodec.parse("{\"name\":\"git\",\"description\":\"Git conventions\"}"),
          List.of(new SkillResource("skill://git/SKILL.md", DIGEST, 3))));
      all.add(new Skill(
          "skill://reports/daily/SKILL.md",
          (JsonObject) JsonCodec.parse("{\"name\":\"daily\",\"description\":\"Daily report\"}"),
          null));
      return all;
    }

    @Override
    public boolean visible(Caller caller, String uri) {
      return !uri.startsWith("skill://acme/") || caller.permits(Set.of("admin"));
    }
  }
}
