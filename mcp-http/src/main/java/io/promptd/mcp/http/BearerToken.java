package io.promptd.mcp.http;

import io.promptd.mcp.spi.Caller;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

/** A static token every request must carry as {@code Authorization: Bearer <token>}; its callers are unrestricted. */
final class BearerToken implements Authenticator {
  private static final Authenticator.Refused MISSING =
      new Authenticator.Refused(401, "Bearer", "Unauthorized: a valid bearer token is required");

  private final byte[] token;

  BearerToken(String token) {
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public Outcome authenticate(List<String> authorization) {
    String header = authorization.isEmpty() ? null : authorization.getFirst();
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return MISSING;
    }
    byte[] given = header.substring(7).trim().getBytes(StandardCharsets.UTF_8);
    // constant time: no token guessing by timing
    return MessageDigest.isEqual(given, token) ? new Authenticated(Caller.UNRESTRICTED) : MISSING;
  }
}
