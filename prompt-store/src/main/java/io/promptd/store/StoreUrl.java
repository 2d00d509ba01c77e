package io.promptd.store;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Where the prompt store is: {@code postgresql://USER:PASSWORD@HOST:PORT/DATABASE} (also
 * {@code postgres://} and
 * {@code jdbc:postgresql://HOST:PORT/DATABASE?user=USER&password=PASSWORD}), split into a JDBC URL
 * without credentials, a user and a password. The password is never part of {@link #toString()} nor
 * of any error message, and neither is the value of any other query parameter whose name says it
 * holds a secret ({@code sslpassword}, {@code sslkey}, a token…): those are shown as {@code ***}.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class StoreUrl {
  /** The environment variable read when no {@code --store} is given. */
  public static final String VARIABLE = "PROMPTD_STORE";

  /**
   * What a query parameter's name holds, lower-cased, when its value is a secret or says where one
   * is.
   */
  private static final List<String> SECRET_NAMES =
      List.of("password", "passwd", "secret", "token", "key", "credential");

  private static final String EXPECTED =
      "expected postgresql://USER:PASSWORD@HOST:PORT/DATABASE or jdbc:postgresql://HOST:PORT/DATABASE";

  private final String jdbcUrl;
  private final @Nullable String user;
  private final @Nullable String password;
  private final String shown;

  private StoreUrl(String jdbcUrl, @Nullable String user, @Nullable String password, String shown) {
    this.jdbcUrl = jdbcUrl;
    this.user = user;
    this.password = password;
    this.shown = shown;
  }

  /**
   * Parses a store URL.
   *
   * @throws IllegalArgumentException when it is not one; the message never repeats the URL, which
   *     may hold a secret
   */
  public static StoreUrl parse(String url) {
    requireNonNull(url, "url");
    String text = url.strip();
    boolean jdbc = text.startsWith("jdbc:");
    String rest = jdbc ? text.substring("jdbc:".length()) : text;
    URI uri;
    try {
      uri = new URI(rest);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "store URL is malformed at index " + e.getIndex() + ": " + EXPECTED);
    }
    String scheme = uri.getScheme();
    if (scheme == null || !(scheme.equals("postgresql") || (!jdbc && scheme.equals("postgres")))) {
      throw new IllegalArgumentException(
          "store URL has scheme '" + (scheme == null ? "" : scheme) + "': " + EXPECTED);
    }
    String host = uri.getHost();
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("store URL names no host: " + EXPECTED);
    }
    String path = uri.getRawPath();
    String database = path == null || path.length() <= 1 ? "" : decode(path.substring(1));
    if (database.isEmpty() || database.contains("/")) {
      throw new IllegalArgumentException("store URL names no database: " + EXPECTED);
    }
    String user = null;
    String password = null;
    String info = uri.getRawUserInfo();
    if (info != null) {
      int colon = info.indexOf(':');
      user = decode(colon < 0 ? info : info.substring(0, colon));
      password = colon < 0 ? null : decode(info.substring(colon + 1));
    }
    List<String> kept = new ArrayList<>();
    List<String> shownParams = new ArrayList<>();
    String query = uri.getRawQuery();
    if (query != null) {
      for (String pair : query.split("&", -1)) {
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
        switch (key) {
          case "user" -> user = value;
          case "password" -> password = value;
          case "" -> {}
          default -> {
            kept.add(pair);
            shownParams.add(secret(key) ? key + "=***" : pair);
          }
        }
      }
    }
    String hostPort = (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host)
        + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
    String target = hostPort + "/" + encodePath(database);
    String shown = "postgresql://" + (user == null ? "" : user + "@") + target + query(shownParams);
    return new StoreUrl(
        "jdbc:postgresql://" + target + query(kept),
        blankToNull(user),
        blankToNull(password),
        shown);
  }

  /** The JDBC URL, without user or password. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** The user, or null to let the driver decide. */
  public @Nullable String user() {
    return user;
  }

  /** The driver properties: user and password. Hand them to the driver only. */
  Properties credentials() {
    Properties p = new Properties();
    if (user != null) {
      p.setProperty("user", user);
    }
    if (password != null) {
      p.setProperty("password", password);
    }
    return p;
  }

  /** The password, for the pool only. */
  @Nullable
  String password() {
    return password;
  }

  /**
   * The URL without its password, fit for logs and errors:
   * {@code postgresql://USER@HOST:PORT/DATABASE}, with the value of each secret-bearing query
   * parameter replaced by {@code ***}.
   */
  @Override
  public String toString() {
    return shown;
  }

  /**
   * Whether a query parameter's value is to be hidden: the driver has several that hold a secret or
   * where one is ({@code sslpassword}, {@code sslkey}, {@code sslpasswordcallback}), and a name
   * that merely looks like one costs only a less useful log line. A name that cannot be decoded is
   * hidden too: the driver is the one to refuse it.
   */
  private static boolean secret(String rawName) {
    String name;
    try {
      name = URLDecoder.decode(rawName.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return true;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    return SECRET_NAMES.stream().anyMatch(lower::contains);
  }

  private static String query(List<String> params) {
    return params.isEmpty() ? "" : "?" + String.join("&", params);
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("store URL has a bad %-escape: " + EXPECTED);
    }
  }

  private static String encodePath(String database) {
    return database.replace("%", "%25").replace("?", "%3F").replace("#", "%23").replace(" ", "%20");
  }

  private static @Nullable String blankToNull(@Nullable String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
