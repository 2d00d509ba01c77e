package io.promptd.mcp.http.internal.exchange;

/**
 * Whose session quota a request counts against: the access token's subject when OAuth names one,
 * else the client's address (anonymous callers, and everyone sharing a static token, are told apart
 * by where they come from).
 */
public final class CallerKey {
  private CallerKey() {}

  /** The quota key of {@code ex}'s caller; a subject and an address never collide. */
  public static String of(Exchange ex) {
    String subject = ex.caller().subject();
    if (subject != null) {
      return "subject " + subject;
    }
    String address = ex.remoteAddress();
    return "address " + (address == null ? "unknown" : address);
  }
}
