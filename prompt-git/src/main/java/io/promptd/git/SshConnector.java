package io.promptd.git;

import java.io.File;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.api.TransportConfigCallback;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.sshd.ServerKeyDatabase;
import org.eclipse.jgit.transport.sshd.SshdSessionFactory;
import org.eclipse.jgit.transport.sshd.agent.ConnectorFactory;
import org.jspecify.annotations.Nullable;

/**
 * JGit's SSH client (Apache MINA sshd) set up for one {@link GitSsh}: it logs in with the key given
 * (else the default key files in {@code ~/.ssh}), by public key only, and accepts only a host key
 * that is in the known-hosts file ({@link KnownHosts}). {@code ~/.ssh/config} and an SSH agent are
 * not used, so that what promptd trusts and offers is exactly what its options say. Made only for
 * an SSH remote: serving any other loads none of sshd.
 */
final class SshConnector implements TransportConfigCallback, AutoCloseable {
  private final GitSsh ssh;
  private final Factory factory = new Factory();
  private volatile @Nullable KnownHosts hosts;

  SshConnector(GitSsh ssh) {
    this.ssh = ssh;
  }

  @Override
  public void configure(Transport transport) {
    if (transport instanceof SshTransport t) {
      t.setSshSessionFactory(factory);
    }
  }

  /** Forgets why the last connection was refused; called before each fetch. */
  void reset() {
    KnownHosts h = hosts;
    if (h != null) {
      h.reset();
    }
  }

  /** Why the host key check refused the last connection, or null when it did not. */
  @Nullable
  String refusal() {
    KnownHosts h = hosts;
    return h == null ? null : h.refusal();
  }

  @Override
  public void close() {
    factory.close();
  }

  /** JGit's sshd session factory with this connector's key, known-hosts file and host key check. */
  private final class Factory extends SshdSessionFactory {
    @Override
    protected @Nullable File getSshConfig(File sshDir) {
      // ~/.ssh/config is not read: it could turn host key checking off or offer other keys
      return null;
    }

    @Override
    protected List<Path> getDefaultKnownHostsFiles(File sshDir) {
      return List.of(ssh.knownHosts());
    }

    @Override
    protected List<Path> getDefaultIdentities(File sshDir) {
      Path key = ssh.key();
      return key != null ? List.of(key) : super.getDefaultIdentities(sshDir);
    }

    @Override
    protected ServerKeyDatabase getServerKeyDatabase(File homeDir, File sshDir) {
      KnownHosts h = hosts;
      if (h == null) {
        h = new KnownHosts(super.getServerKeyDatabase(homeDir, sshDir), ssh.knownHosts());
        hosts = h;
      }
      return h;
    }

    @Override
    protected String getDefaultPreferredAuthentications() {
      return "publickey";
    }

    @Override
    protected @Nullable ConnectorFactory getConnectorFactory() {
      return null; // no SSH agent
    }
  }
}
