/**
 * How MCP clients add a promptd server in one step: {@link io.promptd.catalog.links.InstallLinks}
 * builds VS Code's install link and {@code code --add-mcp} command, Cursor's deep link and the
 * {@code claude mcp add} line, each from the server entry that client's own configuration file
 * holds. {@code promptd clients} prints them and the web catalog shows them as buttons. The package
 * depends on the JDK and promptd's JSON types only.
 */
@NullMarked
package io.promptd.catalog.links;

import org.jspecify.annotations.NullMarked;
