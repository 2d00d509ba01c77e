package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code promptd serve --http --catalog}: the web catalog, off by default, only with HTTP. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ServeOptionsCatalogTest {
  @TempDir
  Path dir;

  @Test
  void offByDefaultAndOnWithTheFlag() {
    assertThat(ServeOptions.parse(List.of("--http", dir.toString())).catalog()).isFalse();
    assertThat(ServeOptions.parse(List.of("--http", "3000", "--catalog", dir.toString()))
            .catalog())
        .isTrue();
  }

  @Test
  void theCatalogNeedsHttp() {
    assertThatThrownBy(() -> ServeOptions.parse(List.of("--catalog", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--catalog needs --http");
  }

  @Test
  void theUsageTextListsTheFlag() {
    assertThat(Main.USAGE_TEXT).contains("--catalog            also serve the web catalog at /");
  }

  @Test
  void theCatalogLogsPeopleInAsTheClientGivenWithOAuth() {
    ServeOptions options = ServeOptions.parse(List.of(
        "--http",
        "--catalog",
        "--oauth-issuer",
        "https://id.example.com/realms/team",
        "--catalog-client-id",
        "promptd-catalog",
        dir.toString()));
    assertThat(options.catalogClientId()).isEqualTo("promptd-catalog");
    assertThat(
            ServeOptions.parse(List.of("--http", "--catalog", dir.toString())).catalogClientId())
        .isNull();
    assertThatThrownBy(() -> ServeOptions.parse(List.of(
            "--http", "--catalog", "--catalog-client-id", "promptd-catalog", dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--catalog-client-id needs --oauth-issuer: the catalog logs people in at the"
            + " identity provider promptd takes tokens from");
    assertThatThrownBy(() -> ServeOptions.parse(List.of(
            "--http",
            "--oauth-issuer",
            "https://id.example.com/realms/team",
            "--catalog-client-id",
            "promptd-catalog",
            dir.toString())))
        .isInstanceOf(UsageException.class)
        .hasMessage("--catalog-client-id needs --catalog");
    assertThat(Main.USAGE_TEXT).contains("--catalog-client-id ID");
  }
}
