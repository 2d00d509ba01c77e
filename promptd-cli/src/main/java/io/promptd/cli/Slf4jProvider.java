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

  private static final class Adapter extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;
    private final transient System.Logger target;

    Adapter(String name, System.Logger target) {
      this.name = name;
      this.target = target;
    }

    @Override
    public boolean isTraceEnabled() {
      return target.isLoggable(System.Logger.Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
      return target.isLoggable(System.Logger.Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
      return target.isLoggable(System.Logger.Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
      return target.isLoggable(System.Logger.Level.WARNING);
    }

    @Override
    public boolean isErrorEnabled() {
      return target.isLoggable(System.Logger.Level.ERROR);
    }

    @Override
    protected @Nullable String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
        Level level, @Nullable Marker marker, @Nullable String pattern, @Nullable Object[] arguments,
        @Nullable Throwable thrown) {
      String message = MessageFormatter.basicArrayFormat(pattern, arguments);
      target.log(switch (level) {
        case ERROR -> System.Logger.Level.ERROR;
        case WARN -> System.Logger.Level.WARNING;
        case INFO -> System.Logger.Level.INFO;
        case DEBUG -> System.Logger.Level.DEBUG;
        case TRACE -> System.Logger.Level.TRACE;
      }, message == null ? "" : message, thrown);
    }
  }
}
