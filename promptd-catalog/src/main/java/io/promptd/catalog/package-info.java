/**
 * The web catalog: {@link io.promptd.catalog.WebCatalog} mounts the page and its files on an
 * {@link io.promptd.mcp.http.HttpTransportBuilder}.
 */
@NullMarked
package io.promptd.catalog;

import org.jspecify.annotations.NullMarked;
