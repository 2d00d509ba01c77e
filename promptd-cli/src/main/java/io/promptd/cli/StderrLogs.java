package io.promptd.cli;

import java.io.PrintStream;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * promptd's {@link System.LoggerFinder}: one line per record on stderr ({@code promptd LEVEL:
 * message}), because stdout is the stdio transport. It replaces java.util.logging, whose set-up and
 * per-record formatting (a time-zone lookup for every record) cost a noticeable share of a cold
 * start. Jetty's SLF4J output arrives here through {@link Slf4jProvider}.
 *
 * <p>The threshold is {@code -Dpromptd.log.level=LEVEL} (ERROR, WARNING, INFO, DEBUG, TRACE, ALL or
 * OFF; the java.util.logging names SEVERE, FINE, FINER and FINEST are understood too), INFO by
 * default; Jetty's, HikariCP's, Flyway's and Apache sshd's (Git over SSH) loggers show warnings and
 * errors only, since their start and stop chatter says nothing promptd does not say itself.
 */
public final class StderrLogs extends System.LoggerFinder {
  private static final String JETTY = "org.eclipse.jetty";
  private static final System.Logger.Level THRESHOLD =
      threshold(System.getProperty("promptd.log.level", "INFO"));
  private static final CopyOnWriteArrayList<Forward> FORWARDS = new CopyOnWriteArrayList<>();

  /** Called by the service loader. */
  public StderrLogs() {}

  @Override
  public System.Logger getLogger(String name, Module module) {
    boolean chatty = name.startsWith(JETTY)
        || name.startsWith("com.zaxxer.hikari")
        || name.startsWith("org.flywaydb")
        || name.startsWith("org.apache.sshd");
    return new Line(
        name,
        chatty && THRESHOLD.getSeverity() < System.Logger.Level.WARNING.getSeverity()
            ? System.Logger.Level.WARNING
            : THRESHOLD);
  }

  /**
   * Also hands the records of loggers named {@code prefix} (or below it) to {@code sink}, as level
   * and message, until the returned action is run.
   */
  static Runnable forward(String prefix, BiConsumer<System.Logger.Level, String> sink) {
    Forward forward = new Forward(prefix, sink);
    FORWARDS.add(forward);
    return () -> FORWARDS.remove(forward);
  }

  /**
   * What a forwarded record says to clients: the message and the exception's own message, without
   * Java class names (the exception's type and any a message quotes, such as a wrapped cause's).
   * Stderr keeps them for the operator.
   */
  static String forClients(String message, @Nullable Throwable thrown) {
    String text = message;
    if (thrown != null) {
      String why = thrown.getMessage() == null
          ? ""
          : CLASS_NAME.matcher(thrown.getMessage()).replaceAll("").strip();
      text =
          message + ": " + (why.isEmpty() ? "internal error (details in the server's log)" : why);
    }
    return CLASS_NAME.matcher(text).replaceAll("");
  }

  /** A Java exception class name, qualified or not, with the ": " that usually follows it. */
  private static final Pattern CLASS_NAME = Pattern.compile(
      "\\b(?:[A-Za-z_$][\\w$]*\\.)*[A-Z][\\w$]*(?:Exception|Error|Throwable)\\b(?::\\s*)?");

  static System.Logger.Level threshold(String name) {
    return switch (name.strip().toUpperCase(Locale.ROOT)) {
      case "OFF" -> System.Logger.Level.OFF;
      case "ERROR", "SEVERE" -> System.Logger.Level.ERROR;
      case "WARNING", "WARN" -> System.Logger.Level.WARNING;
      case "DEBUG", "FINE", "CONFIG" -> System.Logger.Level.DEBUG;
      case "TRACE", "FINER", "FINEST" -> System.Logger.Level.TRACE;
      case "ALL" -> System.Logger.Level.ALL;
      default -> System.Logger.Level.INFO;
    };
  }

  private record Forward(String prefix, BiConsumer<System.Logger.Level, String> sink) {
    boolean covers(String name) {
      return name.startsWith(prefix)
          && (name.length() == prefix.length() || name.charAt(prefix.length()) == '.');
    }
  }

  private record Line(String name, System.Logger.Level threshold) implements System.Logger {
    @Override
    public String getName() {
      return name;
    }

    @Override
    public boolean isLoggable(Level level) {
      return level != Level.OFF
          && threshold != Level.OFF
          && level.getSeverity() >= threshold.getSeverity();
    }

    @Override
    public void log(
        Level level,
        @Nullable ResourceBundle bundle,
        @Nullable String msg,
        @Nullable Throwable thrown) {
      if (isLoggable(level)) {
        write(level, msg == null ? "" : msg, thrown);
      }
    }

    @Override
    public void log(
        Level level,
        @Nullable ResourceBundle bundle,
        @Nullable String format,
        @Nullable Object... params) {
      if (isLoggable(level)) {
        String pattern = format == null ? "" : format;
        write(
            level,
            params == null || params.length == 0 ? pattern : MessageFormat.format(pattern, params),
            null);
      }
    }

    private void write(Level level, String message, @Nullable Throwable thrown) {
      PrintStream err = System.err;
      StringBuilder line = new StringBuilder(message.length() + 24)
          .append("promptd ")
          .append(level.getName())
          .append(": ")
          .append(message);
      if (thrown != null) {
        line.append(": ").append(thrown);
      }
      err.println(line);
      if (thrown != null && isLoggable(Level.DEBUG)) {
        thrown.printStackTrace(err);
      }
      for (Forward forward : FORWARDS) {
        if (forward.covers(name)) {
          forward.sink().accept(level, forClients(message, thrown));
        }
      }
    }
  }
}
