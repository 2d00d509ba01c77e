package io.promptd.mcp.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * promptd's own version, as reported in {@code serverInfo}: the POM's, through a filtered resource.
 */
final class Version {
  static final String CURRENT = read(Version.class);

  private Version() {}

  /** The {@code version} in {@code version.properties} next to {@code owner}. */
  static String read(Class<?> owner) {
    try (InputStream in = owner.getResourceAsStream("version.properties")) {
      if (in == null) {
        throw new IllegalStateException(
            owner.getPackageName() + "/version.properties is missing from the build");
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "");
      if (v.isBlank() || v.startsWith("${")) {
        throw new IllegalStateException(
            owner.getPackageName() + "/version.properties was not filtered: '" + v + "'");
      }
      return v;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
