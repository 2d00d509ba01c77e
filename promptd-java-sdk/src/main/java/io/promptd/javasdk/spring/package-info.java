/**
 * Spring Boot auto-configuration: a Spring AI MCP server serves a promptd prompt folder from one
 * property, and its beans' Spring AI {@code @McpPrompt} (and promptd {@code @PromptMethod}) methods
 * through promptd with none.
 */
@NullMarked
package io.promptd.javasdk.spring;

import org.jspecify.annotations.NullMarked;
