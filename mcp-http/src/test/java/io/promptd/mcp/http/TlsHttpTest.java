package io.promptd.mcp.http;

import static io.promptd.mcp.http.TestClient.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.promptd.mcp.server.McpServer;
import io.promptd.testing.Poll;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS in-process from PEM files, a renewed certificate picked up without a restart, and clear
 * errors for bad files.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TlsHttpTest {
  private static final String INIT = request(
      1,
      "initialize",
      "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}");

  @TempDir
  Path dir;

  @Test
  void servesHttpsAndPicksUpARenewedCertificate() throws Exception {
    Pair first = Pair.generate(dir, "first");
    Pair second = Pair.generate(dir, "second");
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    first.installAs(cert, key);
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .tls(cert, key)
            .tlsReloadInterval(Duration.ofMillis(100))
            .build()
            .start()) {
      assertThat(http.uri().getScheme()).isEqualTo("https");
      assertThat(post(first, http).statusCode()).isEqualTo(200);
      assertThatThrownBy(() -> post(second, http))
          .as("the second certificate is not served yet")
          .isInstanceOf(SSLHandshakeException.class);

      second.installAs(cert, key);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      HttpResponse<String> renewed = null;
      while (renewed == null && System.nanoTime() < deadline) {
        try {
          renewed = post(second, http);
        } catch (IOException e) {
          Thread.sleep(100); // not reloaded yet
        }
      }
      assertThat(renewed)
          .as("the renewed certificate is served without a restart")
          .isNotNull();
      assertThat(renewed.statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aBrokenReplacementKeepsTheLastGoodCertificate() throws Exception {
    Pair first = Pair.generate(dir, "first");
    Path cert = dir.resolve("tls.crt");
    Path key = dir.resolve("tls.key");
    first.installAs(cert, key);
    try (McpServer server = ConformanceFixtures.server();
        HttpTransport http = HttpTransport.builder()
            .server(server)
            .tls(cert, key)
            .tlsReloadInterval(Duration.ofMillis(50))
            .build()
            .start()) {
      int before = http.tlsLooks();
      Files.writeString(
          key, "-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n");
      Poll.until(
          Duration.ofSeconds(30),
          Duration.ofMillis(10),
          () -> "the reloader looked at the broken files",
          () -> http.tlsLooks() >= before + 3);
      assertThat(http.tlsLooks())
          .as("the reloader looked at the broken files")
          .isGreaterThanOrEqualTo(before + 3);
      assertThat(post(first, http).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void unreadableOrMismatchedFilesAreRefusedWithTheFileNamed() throws Exception {
    Pair pair = Pair.generate(dir, "a");
    Path rsa = dir.resolve("rsa.key");
    Files.writeString(
        rsa, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
    Path empty = dir.resolve("empty.crt");
    Files.writeString(empty, "");
    try (McpServer server = ConformanceFixtures.server()) {
      assertThatThrownBy(
              () -> HttpTransport.builder().server(server).tls(pair.cert, rsa).build())
          .isInstanceOf(UncheckedIOException.class)
          .hasMessage("java.io.IOException: " + rsa
              + ": a RSA PRIVATE KEY; convert it with: openssl pkcs8 -topk8"
              + " -nocrypt -in KEY -out KEY.pk8 (PKCS#8, -----BEGIN PRIVATE KEY-----)");
      assertThatThrownBy(
              () -> HttpTransport.builder().server(server).tls(empty, pair.key).build())
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining(empty.toString());
      assertThatThrownBy(() -> HttpTransport.builder()
              .server(server)
              .tls(dir.resolve("missing.crt"), pair.key)
              .build())
          .isInstanceOf(UncheckedIOException.class)
          .hasMessageContaining("missing.crt");
    }
  }

  private static HttpResponse<String> post(Pair trusted, HttpTransport http) throws Exception {
    HttpClient client = HttpClient.newBuilder()
        .sslContext(trusted.trusting())
        .connectTimeout(Duration.ofSeconds(5))
        .build();
    HttpRequest request = HttpRequest.newBuilder(http.uri())
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .header("Accept", TestClient.ACCEPT_BOTH)
        .POST(HttpRequest.BodyPublishers.ofString(INIT))
        .build();
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofString());
    } finally {
      client.close();
    }
  }

  /** A self-signed certificate for 127.0.0.1 made by the JDK's keytool, written as PEM files. */
  private record Pair(Path cert, Path key, X509Certificate certificate) {
    static Pair generate(Path dir, String name) throws Exception {
      Path store = dir.resolve(name + ".p12");
      Process p = new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
              "-genkeypair",
              "-alias",
              name,
              "-keyalg",
              "EC",
              "-groupname",
              "secp256r1",
              "-dname",
              "CN=" + name,
              "-ext",
              "SAN=ip:127.0.0.1,dns:localhost",
              "-validity",
              "2",
              "-keystore",
              store.toString(),
              "-storetype",
              "PKCS12",
              "-storepass",
              "changeit")
          .redirectErrorStream(true)
          .start();
      try (InputStream out = p.getInputStream()) {
        String log = new String(out.readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS))
            .as("keytool finished: " + log)
            .isTrue();
        assertThat(p.exitValue()).as("keytool: " + log).isZero();
      }
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(store)) {
        ks.load(in, "changeit".toCharArray());
      }
      X509Certificate certificate = (X509Certificate) ks.getCertificate(name);
      byte[] key = ks.getKey(name, "changeit".toCharArray()).getEncoded();
      Path certFile = dir.resolve(name + ".crt");
      Path keyFile = dir.resolve(name + ".key");
      Files.writeString(certFile, pem("CERTIFICATE", certificate.getEncoded()));
      Files.writeString(keyFile, pem("PRIVATE KEY", key));
      return new Pair(certFile, keyFile, certificate);
    }

    void installAs(Path certTarget, Path keyTarget) throws IOException {
      Files.copy(key, keyTarget, StandardCopyOption.REPLACE_EXISTING);
      Files.copy(cert, certTarget, StandardCopyOption.REPLACE_EXISTING);
    }

    SSLContext trusting() throws Exception {
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("trusted", (Certificate) certificate);
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(null, tmf.getTrustManagers(), null);
      return ctx;
    }

    private static String pem(String label, byte[] der) {
      return "-----BEGIN " + label + "-----\n"
          + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + label
          + "-----\n";
    }
  }
}
