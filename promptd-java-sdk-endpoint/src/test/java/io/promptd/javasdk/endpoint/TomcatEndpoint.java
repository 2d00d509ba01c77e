package io.promptd.javasdk.endpoint;

import jakarta.servlet.http.HttpServlet;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;

/** A servlet at {@code /mcp} in a real embedded Tomcat on a port the kernel picks. */
final class TomcatEndpoint implements AutoCloseable {
  private final Tomcat tomcat = new Tomcat();

  TomcatEndpoint(HttpServlet servlet, Path baseDir) throws LifecycleException {
    tomcat.setBaseDir(baseDir.toString());
    tomcat.setPort(0);
    Context context = tomcat.addContext("", baseDir.toString());
    Wrapper wrapper = Tomcat.addServlet(context, "mcp", servlet);
    wrapper.setAsyncSupported(true);
    wrapper.addMapping("/mcp");
    // Reads what a refused client still sends, so that it sees the 413 rather than a reset.
    tomcat.getConnector().setProperty("maxSwallowSize", "-1");
    tomcat.start();
  }

  String base() {
    return "http://127.0.0.1:" + tomcat.getConnector().getLocalPort();
  }

  String url() {
    return base() + "/mcp";
  }

  @Override
  public void close() throws LifecycleException {
    tomcat.stop();
    tomcat.destroy();
  }
}
