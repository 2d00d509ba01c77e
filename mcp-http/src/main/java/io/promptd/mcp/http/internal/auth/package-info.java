/**
 * Who may send a request: the {@link io.promptd.mcp.http.internal.auth.Gate} that every route
 * passes (open once the transport started, closed while it stops), the Host and Origin checks, and
 * the authenticators behind it — a static bearer token, or the OAuth resource server with its token
 * verifier and the issuer's keys — and the trusted proxies whose forwarding headers are believed.
 * Above the exchange room only.
 */
@NullMarked
package io.promptd.mcp.http.internal.auth;

import org.jspecify.annotations.NullMarked;
