package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** How a store URL is shown: without its password, and without any other secret its query carries. */
class StoreUrlTest {
  @Test
  void everySecretBearingQueryParameterIsRedactedWhereTheUrlIsShown() {
    StoreUrl u = StoreUrl.parse("postgresql://alice:Pw0@db.example:5432/prompts?sslmode=verify-full"
        + "&sslpassword=KeyPass1&sslkey=/home/alice/Key2.pk8&Password=Upper3&api_token=Tok4"
        + "&clientSecret=Sec5&ssl%70assword=Enc6&ApplicationName=promptd");
    assertThat(u.toString())
        .isEqualTo("postgresql://alice@db.example:5432/prompts?sslmode=verify-full"
            + "&sslpassword=***&sslkey=***&Password=***&api_token=***&clientSecret=***"
            + "&ssl%70assword=***&ApplicationName=promptd");
    // The driver still gets each of them.
    assertThat(u.jdbcUrl())
        .isEqualTo("jdbc:postgresql://db.example:5432/prompts?sslmode=verify-full"
            + "&sslpassword=KeyPass1&sslkey=/home/alice/Key2.pk8&Password=Upper3&api_token=Tok4"
            + "&clientSecret=Sec5&ssl%70assword=Enc6&ApplicationName=promptd");

    StoreUrl j = StoreUrl.parse(
        "jdbc:postgresql://h/db?user=bob&password=Secret7&sslpassword=Secret8&sslmode=require");
    assertThat(j.toString()).isEqualTo("postgresql://bob@h/db?sslpassword=***&sslmode=require");
  }

  @Test
  void aStoreThatCannotBeReachedIsReportedWithoutTheSecretsOfItsUrl() {
    // Port 1 on this machine refuses at once: no PostgreSQL needed to see the message.
    StoreUrl u = StoreUrl.parse(
        "postgresql://alice:Pw1@127.0.0.1:1/prompts?sslpassword=Leak2" + "&sslmode=disable");
    assertThatThrownBy(() -> PromptStore.open(u).close())
        .isInstanceOf(StoreException.class)
        .hasMessageContaining("postgresql://alice@127.0.0.1:1/prompts?sslpassword=***")
        .hasMessageNotContaining("Leak2")
        .hasMessageNotContaining("Pw1");
  }
}
