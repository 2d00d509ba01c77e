package io.promptd.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import org.junit.jupiter.api.Test;

/**
 * How a store URL is shown: without its password, and without any other secret its query carries.
 */
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
  void aStoreThatCannotBeReachedIsReportedWithoutWhereItIsAndLoggedWithoutItsSecrets() {
    // Port 1 on this machine refuses at once: no PostgreSQL needed to see the message.
    StoreUrl u = StoreUrl.parse(
        "postgresql://alice:Pw1@127.0.0.1:1/prompts?sslpassword=Leak2" + "&sslmode=disable");
    List<String> logged = new CopyOnWriteArrayList<>();
    Logger log = Logger.getLogger("io.promptd.store");
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord r) {
        logged.add(new SimpleFormatter().formatMessage(r));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    log.addHandler(capture);
    try {
      // The message may reach a remote caller (the management API): it names no host, port,
      // user or database, and no driver text (which may name them).
      assertThatThrownBy(() -> PromptStore.open(u).close())
          .isInstanceOf(StoreException.class)
          .hasMessage(
              "cannot connect: the prompt store is unreachable or failed (the log says why)")
          .hasMessageNotContaining("127.0.0.1")
          .hasMessageNotContaining("alice");
      // The log keeps where and why, still without the secrets.
      assertThat(String.join("\n", logged))
          .contains(
              "cannot connect to the store postgresql://alice@127.0.0.1:1/prompts?sslpassword=***")
          .doesNotContain("Leak2")
          .doesNotContain("Pw1");
    } finally {
      log.removeHandler(capture);
    }
  }
}
