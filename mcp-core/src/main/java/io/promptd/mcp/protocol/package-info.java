/**
 * MCP protocol records, named as the specification names them: prompts, their messages and content,
 * and the small types around them. One record per file; unions are sealed interfaces.
 */
@NullMarked
package io.promptd.mcp.protocol;

import org.jspecify.annotations.NullMarked;
