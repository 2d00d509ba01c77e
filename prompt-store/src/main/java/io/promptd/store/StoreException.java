package io.promptd.store;

import io.promptd.mcp.api.Stability;

/**
 * A store operation failed: the database could not be reached or refused, another publish got there
 * first ({@link Kind#CONFLICT}), the files to publish have errors ({@link Kind#REFUSED}), or the
 * request names a prompt the store does not hold ({@link Kind#NOT_FOUND}). The message says what,
 * never the password; a failure of the database names neither the store nor the driver's reason,
 * which the log keeps.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class StoreException extends Exception {
  private static final long serialVersionUID = 1L;
  private static final System.Logger LOG = System.getLogger("io.promptd.store");

  /** Why an operation failed. */
  public enum Kind {
    /** The database failed or could not be reached. */
    FAILED,
    /**
     * Another publish committed after this one read the library version it was based on; nothing
     * was written.
     */
    CONFLICT,
    /**
     * The files to publish have errors, or a version asked for does not exist; nothing was written.
     */
    REFUSED,
    /**
     * The request names no file the store holds or held (a mistyped prompt name); nothing was
     * written.
     */
    NOT_FOUND,
    /**
     * The label is protected and the caller lacks the scope that moving it needs; nothing was
     * written.
     */
    FORBIDDEN
  }

  private final Kind kind;

  /** A failure of {@code kind} that says {@code message}. */
  public StoreException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  /**
   * A failure of {@code kind} caused by {@code cause}, whose message must hold no secret either.
   */
  public StoreException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** Why it failed. */
  public Kind kind() {
    return kind;
  }

  /**
   * A failure of the database: the message, which may reach a remote caller (the management API
   * answers with it), says what could not be done and names neither the store nor the driver's
   * reason (its text may name the host, the port, the user or the database); {@code detail}, which
   * says where and why, goes to the log instead.
   *
   * @param what what could not be done, such as "read the files"
   * @param detail the same with the store's URL (without secrets) and the reason
   */
  static StoreException failed(String what, String detail) {
    LOG.log(System.Logger.Level.WARNING, detail);
    return new StoreException(
        Kind.FAILED,
        "cannot " + what + ": the prompt store is unreachable or failed (the log says why)");
  }

  /**
   * The message of a failure of the driver, the pool or Flyway, fit for a log or a
   * {@code StoreException}'s message: the first line of the root message (which for them never
   * holds the password).
   */
  public static String reason(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null
        && t.getMessage() != null
        && t.getMessage().startsWith("Failed to initialize pool")) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
  }
}
