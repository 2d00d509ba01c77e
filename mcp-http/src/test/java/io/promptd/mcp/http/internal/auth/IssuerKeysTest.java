package io.promptd.mcp.http.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Where an issuer's metadata is looked for, in the order the MCP authorization spec gives. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class IssuerKeysTest {
  @Test
  void anIssuerWithoutAPathHasTwoPlaces() {
    assertThat(IssuerKeys.discoveryUris(URI.create("https://auth.example.com")))
        .containsExactly(
            URI.create("https://auth.example.com/.well-known/oauth-authorization-server"),
            URI.create("https://auth.example.com/.well-known/openid-configuration"));
    assertThat(IssuerKeys.discoveryUris(URI.create("https://tenant.auth0.com/")))
        .isEqualTo(IssuerKeys.discoveryUris(URI.create("https://tenant.auth0.com")));
  }

  @Test
  void anIssuerWithAPathHasTheWellKnownSegmentInsertedThenAppended() {
    assertThat(IssuerKeys.discoveryUris(URI.create("https://kc.example.com:8443/realms/team")))
        .isEqualTo(List.of(
            URI.create(
                "https://kc.example.com:8443/.well-known/oauth-authorization-server/realms/team"),
            URI.create("https://kc.example.com:8443/.well-known/openid-configuration/realms/team"),
            URI.create(
                "https://kc.example.com:8443/realms/team/.well-known/openid-configuration")));
  }

  @Test
  void issuersDifferingOnlyByATrailingSlashAreTheSame() {
    assertThat(IssuerKeys.sameIssuer("https://t.auth0.com/", "https://t.auth0.com"))
        .isTrue();
    assertThat(IssuerKeys.sameIssuer("https://a.example.com", "https://b.example.com"))
        .isFalse();
  }
}
