package io.promptd.cli;

import org.jspecify.annotations.Nullable;

/**
 * The operations options of {@code promptd serve --http}.
 *
 * @param adminPort the admin port for {@code /metrics}, {@code /healthz} and {@code /readyz}; -1
 *     for none, 0 for any free one
 * @param adminHost the address the admin port binds (default 127.0.0.1: this machine only)
 * @param accessLog where the access log goes: a file to append to, {@code "-"} for stderr, or null
 *     for none
 */
record OpsOptions(int adminPort, String adminHost, @Nullable String accessLog) {
  /** No admin port, no access log. */
  static final OpsOptions NONE = new OpsOptions(-1, "127.0.0.1", null);

  /** Whether an admin port is wanted. */
  boolean admin() {
    return adminPort >= 0;
  }

  /** Whether anything is asked for. */
  boolean any() {
    return admin() || accessLog != null;
  }
}
