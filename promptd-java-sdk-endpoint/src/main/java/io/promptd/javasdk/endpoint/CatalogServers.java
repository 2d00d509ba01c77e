package io.promptd.javasdk.endpoint;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.promptd.javasdk.SdkPrompts;
import io.promptd.javasdk.modern.SdkModernPrompts;
import io.promptd.mcp.server.PromptCatalog;
import java.security.SecureRandom;
import java.util.List;

/**
 * The two SDK servers {@link DualEraServlet#serving(PromptCatalog)} puts one catalog on: a legacy
 * one (sessions, {@code list_changed} notifications) through {@code promptd-java-sdk}, a 2026-07-28
 * one (forms as {@code input_required} rounds, changes through {@code subscriptions/listen})
 * through {@code promptd-java-sdk-modern}, each on its servlet transport at the same path.
 */
final class CatalogServers {
  static final String NAME = "promptd";

  private CatalogServers() {}

  static DualEraServlet open(PromptCatalog catalog, String endpoint, int maxRequestBytes) {
    McpJsonMapper json = McpJsonDefaults.getMapper();
    String version = version();

    HttpServletStreamableServerTransportProvider legacyTransport =
        HttpServletStreamableServerTransportProvider.builder()
            .jsonMapper(json)
            .mcpEndpoint(endpoint)
            .maxRequestSize(maxRequestBytes)
            .build();
    SdkPrompts prompts = SdkPrompts.of(catalog);
    McpSyncServer legacy = io.modelcontextprotocol.server.McpServer.sync(legacyTransport)
        .serverInfo(NAME, version)
        .capabilities(ServerCapabilities.builder().prompts(true).completions().build())
        .prompts(prompts.syncPrompts())
        .completions(prompts.syncCompletions())
        .build();
    AutoCloseable inSync = prompts.keepInSync(legacy);

    SdkModernPrompts modernPrompts = SdkModernPrompts.of(catalog);
    byte[] key = new byte[32]; // one process: the forms' request state is sealed under its own key
    new SecureRandom().nextBytes(key);
    McpServer modern = McpServer.builder()
        .serverInfo(McpSchema.Implementation.builder(NAME, version).build())
        .jsonMapper(json)
        .feature(modernPrompts.feature(json))
        .subscriptions(modernPrompts.changes())
        .requestStateCodec(
            HmacRequestStateCodec.builder().key(key).jsonMapper(json).build())
        .build();
    HttpServletMcpTransport modernTransport = HttpServletMcpTransport.builder(modern)
        .jsonMapper(json)
        .endpoint(endpoint)
        .maxRequestSize(maxRequestBytes)
        .build();

    // Closed in reverse: the catalog's listener first, then the legacy server and its sessions.
    return new DualEraServlet(
        legacyTransport,
        modernTransport,
        maxRequestBytes,
        List.of(legacy::closeGracefully, inSync));
  }

  private static String version() {
    String version = CatalogServers.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }
}
