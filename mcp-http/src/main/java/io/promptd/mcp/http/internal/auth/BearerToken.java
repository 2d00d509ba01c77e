package io.promptd.mcp.http.internal.auth;

import io.promptd.mcp.spi.Caller;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/**
 * A static token every request must carry as {@code Authorization: Bearer <token>}; its callers are
 * unrestricted. A malformed header (the Bearer scheme with no token or more than one word, or the
 * header twice) is 400, as RFC 6750 section 3.1 says and as {@link ResourceServer} answers it under
 * OAuth; a wrong token is 401.
 */
public final class BearerToken implements Authenticator {
  private static final Authenticator.Refused MISSING =
      new Authenticator.Refused(401, "Bearer", "Unauthorized: a valid bearer token is required");
  private static final Authenticator.Refused MALFORMED = new Authenticator.Refused(
      400,
      "Bearer error=\"invalid_request\"",
      "Bad Request: the Authorization header is malformed (one header: Bearer TOKEN)");

  private final byte[] token;

  public BearerToken(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public Outcome authenticate(List<String> authorization) {
    String header = authorization.isEmpty() ? null : authorization.getFirst();
    if (header == null) {
      return MISSING;
    }
    if (authorization.size() > 1) {
      return MALFORMED;
    }
    if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return header.regionMatches(true, 0, "Bearer", 0, 6) && header.strip().length() == 6
          ? MALFORMED // the scheme alone
          : MISSING;
    }
    String credentials = header.substring(7).trim();
    byte[] given = credentials.getBytes(StandardCharsets.UTF_8);
    // constant time: no token guessing by timing
    if (MessageDigest.isEqual(given, token)) {
      return new Authenticated(Caller.UNRESTRICTED);
    }
    return credentials.isEmpty() || credentials.chars().anyMatch(Character::isWhitespace)
        ? MALFORMED
        : MISSING;
  }
}
