/**
 * Legacy HTTP sessions in the PostgreSQL prompt store:
 * {@link io.promptd.store.sessions.StoreSessions}, for
 * {@code io.promptd.mcp.http.HttpTransportBuilder#sessionStore}.
 */
@NullMarked
package io.promptd.store.sessions;

import org.jspecify.annotations.NullMarked;
