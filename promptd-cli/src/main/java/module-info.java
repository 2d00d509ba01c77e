/** The promptd command-line app: the only module that touches System.out and System.exit. */
// The JVM metrics library publishes an automatic module name only.
@SuppressWarnings("requires-automatic")
module io.promptd.cli {
  requires io.promptd.mcp;
  requires io.promptd.mcp.stdio;
  requires io.promptd.mcp.http;
  requires io.promptd.catalog;
  requires io.promptd.mcp.client;
  requires io.promptd.library;
  requires io.promptd.store;
  requires io.promptd.store.sessions;
  requires io.promptd.git;
  requires org.slf4j;
  requires io.prometheus.metrics.config;
  requires io.prometheus.metrics.core;
  requires io.prometheus.metrics.model;
  requires io.prometheus.writer.text;
  requires io.prometheus.metrics.instrumentation.jvm;

  provides java.lang.System.LoggerFinder with
      io.promptd.cli.StderrLogs;
  provides org.slf4j.spi.SLF4JServiceProvider with
      io.promptd.cli.Slf4jProvider;
}
