package io.promptd.mcp.wire;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Completion;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.ProtocolVersion;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.ResourceTemplate;

/**
 * The wire encoders bound to one negotiated version, so that a request's handlers cannot mix
 * versions; each record's form lives in its {@code *Wire} class.
 */
public final class Encoder {
  private final ProtocolVersion version;

  /** An encoder emitting only the fields {@code version}'s schema defines. */
  public Encoder(ProtocolVersion version) {
    this.version = version;
  }

  /** See {@link PromptWire#encode}. */
  public JsonObject prompt(Prompt p) {
    return PromptWire.encode(p, version);
  }

  /** See {@link ImplementationWire#encode}. */
  public JsonObject implementation(Implementation impl) {
    return ImplementationWire.encode(impl, version);
  }

  /** See {@link PromptResultWire#encode}. */
  public JsonObject getPromptResult(GetPromptResult r) {
    return PromptResultWire.encode(r, version);
  }

  /** See {@link CompletionWire#encode}. */
  public JsonObject completion(Completion c) {
    return CompletionWire.encode(c);
  }

  /** See {@link ResourceContentsWire#encode}. */
  public JsonObject resourceContents(ResourceContents rc) {
    return ResourceContentsWire.encode(rc, version);
  }

  /** See {@link ResourceWire#encode(Resource, ProtocolVersion)}. */
  public JsonObject resource(Resource r) {
    return ResourceWire.encode(r, version);
  }

  /** See {@link ResourceWire#encode(ResourceTemplate, ProtocolVersion)}. */
  public JsonObject resourceTemplate(ResourceTemplate t) {
    return ResourceWire.encode(t, version);
  }
}
