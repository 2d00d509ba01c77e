package io.promptd.git;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.List;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.sshd.ServerKeyDatabase;
import org.jspecify.annotations.Nullable;

/**
 * The host key check of an SSH remote: JGit's reader of OpenSSH known-hosts files, always asked
 * with strict checking ({@code StrictHostKeyChecking yes}) against one file and with nobody to ask,
 * so that an unknown host and a changed host key are refused and the file is never written. A
 * refusal is remembered with a message naming the host and the file, as the error says nothing more
 * than that the key "did not validate".
 */
final class KnownHosts implements ServerKeyDatabase {
  private final ServerKeyDatabase openSsh;
  private final Path file;
  private volatile @Nullable String refusal;

  KnownHosts(ServerKeyDatabase openSsh, Path file) {
    this.openSsh = openSsh;
    this.file = file;
  }

  @Override
  public List<PublicKey> lookup(
      String connectAddress, InetSocketAddress remoteAddress, Configuration config) {
    return openSsh.lookup(connectAddress, remoteAddress, strict(config));
  }

  @Override
  public boolean accept(
      String connectAddress,
      InetSocketAddress remoteAddress,
      PublicKey serverKey,
      Configuration config,
      @Nullable CredentialsProvider provider) {
    Configuration strict = strict(config);
    if (openSsh.accept(connectAddress, remoteAddress, serverKey, strict, null)) {
      return true;
    }
    boolean known = !openSsh.lookup(connectAddress, remoteAddress, strict).isEmpty();
    refusal = known
        ? "the host key of " + connectAddress + " does not match the one in the known-hosts file "
            + file + " (refused: the host's key changed, or another host answers)"
        : "the host " + connectAddress + " is not in the known-hosts file " + file
            + " (refused: an unknown host; add its key to the file, checked, to trust it)";
    return false;
  }

  void reset() {
    refusal = null;
  }

  @Nullable
  String refusal() {
    return refusal;
  }

  /** {@code config} with strict checking against this file only. */
  private Configuration strict(Configuration config) {
    String user = config.getUsername();
    List<String> files = List.of(file.toString());
    return new Configuration() {
      @Override
      public List<String> getUserKnownHostsFiles() {
        return files;
      }

      @Override
      public List<String> getGlobalKnownHostsFiles() {
        return List.of();
      }

      @Override
      public StrictHostKeyChecking getStrictHostKeyChecking() {
        return StrictHostKeyChecking.REQUIRE_MATCH;
      }

      @Override
      public boolean getHashKnownHosts() {
        return false;
      }

      @Override
      public String getUsername() {
        return user;
      }
    };
  }
}
