/**
 * Legacy sessions: the registry of one endpoint's sessions with their idle expiry and quotas, each
 * session's event log for resumable GET streams, and, under a session secret, the signed session
 * ids and the shared store that let every replica serve every session. Above the exchange room
 * only.
 */
@NullMarked
package io.promptd.mcp.http.internal.session;

import org.jspecify.annotations.NullMarked;
