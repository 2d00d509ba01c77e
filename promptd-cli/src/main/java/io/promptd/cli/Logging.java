package io.promptd.cli;

import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/** One-line log records on stderr; stdout belongs to the stdio transport. */
final class Logging {
  /** Held so the level set on it is not lost: java.util.logging keeps loggers only weakly. */
  private static final Logger JETTY = Logger.getLogger("org.eclipse.jetty");

  private Logging() {}

  static void configure() {
    if (System.getProperty("java.util.logging.config.file") != null) {
      return;
    }
    System.setProperty("java.util.logging.SimpleFormatter.format", "promptd %4$s: %5$s%6$s%n");
    LogManager.getLogManager().reset();
    Handler stderr = new ConsoleHandler(); // ConsoleHandler writes to System.err
    stderr.setFormatter(new SimpleFormatter());
    stderr.setLevel(Level.ALL);
    Logger root = Logger.getLogger("");
    root.addHandler(stderr);
    root.setLevel(Level.parse(System.getProperty("promptd.log.level", "INFO")));
    JETTY.setLevel(Level.WARNING); // Jetty's start and stop chatter says nothing promptd does not say itself
  }
}
