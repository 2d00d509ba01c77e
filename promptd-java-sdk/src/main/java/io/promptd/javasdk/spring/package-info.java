/**
 * Spring Boot auto-configuration: a Spring AI MCP server serves a promptd prompt folder from one
 * property.
 */
@NullMarked
package io.promptd.javasdk.spring;

import org.jspecify.annotations.NullMarked;
