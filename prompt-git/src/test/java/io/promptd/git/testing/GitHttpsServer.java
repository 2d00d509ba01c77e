package io.promptd.git.testing;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Git's own smart HTTP server ({@code git http-backend}, run once per request as the CGI program it
 * is) behind an HTTPS listener of the JDK with a self-signed certificate made by {@code keytool},
 * requiring basic authentication with one user and password. The repositories are those under the
 * {@code base} folder of a {@link GitServer}.
 */
public final class GitHttpsServer implements AutoCloseable {
  private final HttpsServer server;
  private final ExecutorService threads;

  private GitHttpsServer(HttpsServer server, ExecutorService threads) {
    this.server = server;
    this.threads = threads;
  }

  /**
   * Serves the repositories under {@code base} over HTTPS, asking for {@code user} and
   * {@code password}.
   */
  public static GitHttpsServer start(Path base, Path work, String user, String password)
      throws Exception {
    Path keystore = work.resolve("https.p12");
    char[] pass = "changeit".toCharArray();
    Process keytool = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair",
            "-alias",
            "git",
            "-keyalg",
            "RSA",
            "-keysize",
            "2048",
            "-validity",
            "2",
            "-dname",
            "CN=127.0.0.1",
            "-ext",
            "SAN=ip:127.0.0.1",
            "-storetype",
            "PKCS12",
            "-keystore",
            keystore.toString(),
            "-storepass",
            "changeit",
            "-keypass",
            "changeit")
        .redirectErrorStream(true)
        .start();
    String said = new String(keytool.getInputStream().readAllBytes(), UTF_8);
    if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
      throw new IOException("keytool failed: " + said);
    }
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      ks.load(in, pass);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, pass);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    String expected =
        "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
    server.createContext("/", exchange -> {
      try (exchange) {
        if (!expected.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
          exchange.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"git\"");
          exchange.sendResponseHeaders(401, -1);
          return;
        }
        cgi(exchange, base, user);
      }
    });
    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    server.setExecutor(threads);
    server.start();
    return new GitHttpsServer(server, threads);
  }

  /** The URL of the repository {@code name} (such as {@code prompts.git}). */
  public String url(String name) {
    return "https://127.0.0.1:" + server.getAddress().getPort() + "/" + name;
  }

  /** Runs {@code git http-backend} for one request and relays its answer. */
  private static void cgi(HttpExchange exchange, Path base, String user) throws IOException {
    ProcessBuilder b = new ProcessBuilder("git", "http-backend");
    Map<String, String> env = b.environment();
    env.put("GIT_PROJECT_ROOT", base.toString());
    env.put("GIT_HTTP_EXPORT_ALL", "1");
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    env.put("REQUEST_METHOD", exchange.getRequestMethod());
    env.put("PATH_INFO", exchange.getRequestURI().getPath());
    String query = exchange.getRequestURI().getRawQuery();
    env.put("QUERY_STRING", query == null ? "" : query);
    env.put("REMOTE_USER", user);
    env.put("REMOTE_ADDR", "127.0.0.1");
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    if (type != null) {
      env.put("CONTENT_TYPE", type);
    }
    String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
    if (encoding != null) {
      env.put("HTTP_CONTENT_ENCODING", encoding);
    }
    String protocol = exchange.getRequestHeaders().getFirst("Git-Protocol");
    if (protocol != null) {
      env.put("GIT_PROTOCOL", protocol);
    }
    Process p = b.redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (OutputStream in = p.getOutputStream()) {
      exchange.getRequestBody().transferTo(in);
    }
    byte[] out = p.getInputStream().readAllBytes();
    int end = indexOf(out, "\r\n\r\n".getBytes(UTF_8));
    int skip = 4;
    if (end < 0) {
      end = indexOf(out, "\n\n".getBytes(UTF_8));
      skip = 2;
    }
    int status = 200;
    for (String line : new String(out, 0, Math.max(end, 0), UTF_8).split("\r?\n")) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        String name = line.substring(0, colon).strip();
        String value = line.substring(colon + 1).strip();
        if (name.equalsIgnoreCase("Status")) {
          status = Integer.parseInt(value.substring(0, 3));
        } else {
          exchange.getResponseHeaders().add(name, value);
        }
      }
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(out, end + skip, out.length - end - skip);
    exchange.sendResponseHeaders(status, body.size() == 0 ? -1 : body.size());
    if (body.size() > 0) {
      try (OutputStream o = exchange.getResponseBody()) {
        body.writeTo(o);
      }
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
