package io.promptd.mcp.protocol;

import io.promptd.mcp.api.Stability;
import java.util.Locale;
import java.util.Optional;

/** Log severities, least severe first, as RFC 5424 (syslog) orders them. */
@Stability(Stability.Tier.STABLE)
public enum LoggingLevel {
  /** Detailed debugging information. */
  DEBUG,
  /** Normal operational messages. */
  INFO,
  /** Normal but significant events. */
  NOTICE,
  /** Warning conditions. */
  WARNING,
  /** Error conditions. */
  ERROR,
  /** Critical conditions. */
  CRITICAL,
  /** Action must be taken immediately. */
  ALERT,
  /** The system is unusable. */
  EMERGENCY;

  /** The wire form, e.g. {@code "warning"}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Looks up a wire form. */
  public static Optional<LoggingLevel> of(String id) {
    for (LoggingLevel level : values()) {
      if (level.id().equals(id)) {
        return Optional.of(level);
      }
    }
    return Optional.empty();
  }
}
