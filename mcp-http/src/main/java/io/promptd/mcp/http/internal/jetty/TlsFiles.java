package io.promptd.mcp.http.internal.jetty;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.jspecify.annotations.Nullable;

/**
 * A TLS certificate chain and private key read from PEM files, and kept current: the files are
 * looked at every few seconds and, when they changed and still form a valid pair, new connections
 * use the new pair (renewals need no restart). A broken replacement is logged and the last good
 * pair stays in use.
 */
public final class TlsFiles implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");
  private static final char[] NO_PASSWORD = new char[0];
  private static final List<String> KEY_ALGORITHMS =
      List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS");

  private final Path cert;
  private final Path key;
  private final SslContextFactory.Server factory = new SslContextFactory.Server();
  private final Duration interval;
  private volatile @Nullable Thread watcher;
  private Stamp loaded;
  private final AtomicInteger looks = new AtomicInteger();

  /**
   * Reads the pair once.
   *
   * @throws IOException with a message naming the file when either cannot be read or they do not
   *     form a pair
   */
  public TlsFiles(Path cert, Path key, Duration interval) throws IOException {
    this.cert = cert;
    this.key = key;
    this.interval = interval;
    this.loaded = stamp();
    factory.setKeyStore(keyStore(cert, key));
    factory.setKeyStorePassword("");
    factory.setIncludeProtocols("TLSv1.3", "TLSv1.2");
  }

  SslContextFactory.Server factory() {
    return factory;
  }

  /** Starts looking for new files in the background. */
  void watch() {
    Thread t = Thread.ofVirtual().name("promptd-tls-reload").start(this::loop);
    watcher = t;
  }

  @Override
  public void close() {
    Thread t = watcher;
    if (t != null) {
      t.interrupt();
    }
  }

  private void loop() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Thread.sleep(interval);
        reloadIfChanged();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Loads the files again when their size or time changed; returns whether the new pair is in use.
   */
  boolean reloadIfChanged() {
    try {
      return reload();
    } finally {
      looks.incrementAndGet();
    }
  }

  /** How many times the files were looked at since the start; for tests. */
  int looks() {
    return looks.get();
  }

  private boolean reload() {
    Stamp now;
    try {
      now = stamp();
    } catch (IOException e) {
      return false; // mid-replacement, or gone for now: keep serving the last good pair
    }
    if (now.equals(loaded)) {
      return false;
    }
    try {
      KeyStore ks = keyStore(cert, key);
      factory.reload(f -> f.setKeyStore(ks));
      loaded = now;
      LOG.log(Level.INFO, "TLS certificate reloaded from {0}", cert);
      return true;
    } catch (Exception e) {
      // A certificate written before its key, say: the next look may find a valid pair.
      LOG.log(
          Level.WARNING,
          "TLS certificate not reloaded, the previous one stays in use: {0}",
          e.getMessage());
      return false;
    }
  }

  private Stamp stamp() throws IOException {
    return new Stamp(
        Files.getLastModifiedTime(cert),
        Files.size(cert),
        Files.getLastModifiedTime(key),
        Files.size(key));
  }

  private record Stamp(FileTime certTime, long certSize, FileTime keyTime, long keySize) {}

  /**
   * A key store holding the chain from {@code certFile} and the PKCS#8 key from {@code keyFile}.
   */
  static KeyStore keyStore(Path certFile, Path keyFile) throws IOException {
    List<Certificate> chain;
    try (var in = Files.newInputStream(certFile)) {
      chain = List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
    } catch (GeneralSecurityException e) {
      throw new IOException(certFile + ": not a PEM certificate chain (" + e.getMessage() + ")");
    }
    if (chain.isEmpty()) {
      throw new IOException(
          certFile + ": no certificate found (expected -----BEGIN CERTIFICATE-----)");
    }
    PrivateKey privateKey = privateKey(keyFile);
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("promptd", privateKey, NO_PASSWORD, chain.toArray(Certificate[]::new));
      return ks;
    } catch (GeneralSecurityException e) {
      throw new IOException(keyFile + ": the key does not go with the certificate in " + certFile
          + " (" + e.getMessage() + ")");
    }
  }

  private static PrivateKey privateKey(Path keyFile) throws IOException {
    String pem = Files.readString(keyFile, StandardCharsets.US_ASCII);
    String label = label(pem);
    if (label == null) {
      throw new IOException(
          keyFile + ": no PEM private key found (expected -----BEGIN PRIVATE KEY-----)");
    }
    if (!label.equals("PRIVATE KEY")) {
      String hint = label.equals("ENCRYPTED PRIVATE KEY")
          ? "an encrypted key; promptd needs it unencrypted"
          : "a " + label + "; convert it with: openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8";
      throw new IOException(keyFile + ": " + hint + " (PKCS#8, -----BEGIN PRIVATE KEY-----)");
    }
    String begin = "-----BEGIN PRIVATE KEY-----";
    int start = pem.indexOf(begin) + begin.length();
    int end = pem.indexOf("-----END PRIVATE KEY-----", start);
    if (end < 0) {
      throw new IOException(keyFile + ": the private key has no -----END PRIVATE KEY----- line");
    }
    byte[] der;
    try {
      der = Base64.getMimeDecoder().decode(pem.substring(start, end));
    } catch (IllegalArgumentException e) {
      throw new IOException(keyFile + ": the private key is not valid base64");
    }
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // not this algorithm
      }
    }
    throw new IOException(keyFile + ": not an RSA, EC or EdDSA private key promptd can read");
  }

  /**
   * The label of the first PEM block ({@code PRIVATE KEY}, {@code RSA PRIVATE KEY}, ...), or null.
   */
  private static @Nullable String label(String pem) {
    int begin = pem.indexOf("-----BEGIN ");
    if (begin < 0) {
      return null;
    }
    int end = pem.indexOf("-----", begin + 11);
    return end < 0 ? null : pem.substring(begin + 11, end);
  }
}
