package io.promptd.cli;

import org.jspecify.annotations.Nullable;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/** Routes SLF4J (Jetty's logging) to {@link System.Logger}, that is to {@link StderrLogs}. */
public final class Slf4jProvider implements SLF4JServiceProvider {
  private final ILoggerFactory loggers = name -> new Adapter(name, System.getLogger(name));
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();

  /** Called by the service loader. */
  public Slf4jProvider() {}

  @Override
  public ILoggerFactory getLoggerFactory() {
    return loggers;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {}

  /**
   * One SLF4J logger; levels are fixed for the process, so the checks Jetty makes on every request
   * are one field.
   */
  private static final class Adapter extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;
    private final transient System.Logger target;
    private final boolean trace;
    private final boolean debug;
    private final boolean info;
    private final boolean warn;
    private final boolean error;

    Adapter(String name, System.Logger target) {
      this.name = name;
      this.target = target;
      this.trace = target.isLoggable(System.Logger.Level.TRACE);
      this.debug = target.isLoggable(System.Logger.Level.DEBUG);
      this.info = target.isLoggable(System.Logger.Level.INFO);
      this.warn = target.isLoggable(System.Logger.Level.WARNING);
      this.error = target.isLoggable(System.Logger.Level.ERROR);
    }

    @Override
    public boolean isTraceEnabled() {
      return trace;
    }

    @Override
    public boolean isDebugEnabled() {
      return debug;
    }

    @Override
    public boolean isInfoEnabled() {
      return info;
    }

    @Override
    public boolean isWarnEnabled() {
      return warn;
    }

    @Override
    public boolean isErrorEnabled() {
      return error;
    }

    @Override
    protected @Nullable String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
        Level level,
        @Nullable Marker marker,
        @Nullable String pattern,
        @Nullable Object[] arguments,
        @Nullable Throwable thrown) {
      String message = MessageFormatter.basicArrayFormat(pattern, arguments);
      target.log(
          switch (level) {
            case ERROR -> System.Logger.Level.ERROR;
            case WARN -> System.Logger.Level.WARNING;
            case INFO -> System.Logger.Level.INFO;
            case DEBUG -> System.Logger.Level.DEBUG;
            case TRACE -> System.Logger.Level.TRACE;
          },
          message == null ? "" : message,
          thrown);
    }
  }
}
