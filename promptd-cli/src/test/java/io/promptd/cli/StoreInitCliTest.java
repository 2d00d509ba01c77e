package io.promptd.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.promptd.cli.StoreCliTest.Result;
import io.promptd.store.testing.TestPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code promptd store init} as an operator runs it: docs/lifecycle.md's "Setting up the store" as
 * written (its SQL through psql as the superuser, its shell lines as the role it creates), and a
 * role lacking each right it needs told which, with the statement that grants it.
 */
@Tag("system") // starts a real PostgreSQL: bin/test runs it, bin/check leaves it out
@Timeout(180)
class StoreInitCliTest {
  private static final String HEADING = "## Setting up the store";

  @TempDir
  Path dir;

  @Test
  void theDocsLinesMakeARoleADatabaseAndAStoreThatTakesAPublish() throws Exception {
    TestPostgres pg = TestPostgres.get();
    String sql = DocLines.block("lifecycle.md", HEADING, "sql");
    Map<String, String> superuser = Map.of(
        "PGHOST", "127.0.0.1",
        "PGPORT", String.valueOf(pg.port()),
        "PGUSER", "postgres",
        "PGDATABASE", "postgres");
    Result psql = shell(
        List.of(pg.binaries().resolve("psql").toString(), "-X", "-q", "-v", "ON_ERROR_STOP=1"),
        sql,
        superuser);
    assertThat(psql.status()).as(psql.err()).isZero();

    // The doc's host is the test's PostgreSQL; everything else runs as written.
    String sh = DocLines.block("lifecycle.md", HEADING, "sh")
        .replace("db.example:5432", "127.0.0.1:" + pg.port());
    Path prompts = Files.createDirectories(dir.resolve("prompts"));
    for (String name : List.of("a", "b", "c")) {
      Files.writeString(prompts.resolve(name + ".prompt.md"), "Prompt " + name + "\n");
    }
    Result ran = shell(List.of("sh", "-e", "-c", sh), "", Map.of("PATH", launcherPath()));
    assertThat(ran.status()).as(ran.err()).isZero();
    List<String> printed =
        sh.lines().filter(l -> l.startsWith("# ")).map(l -> l.substring(2)).toList();
    assertThat(printed).hasSizeGreaterThanOrEqualTo(4);
    assertThat(ran.out().lines().toList()).isEqualTo(printed);
    assertThat(ran.err()).doesNotContainIgnoringCase("flyway").doesNotContain("Exception");

    // The store belongs to the role: its tables are promptd's, not the superuser's.
    try (Connection c = superuser(pg, "prompts");
        Statement s = c.createStatement();
        var r = s.executeQuery("SELECT tableowner FROM pg_tables WHERE tablename = 'store'")) {
      assertThat(r.next()).isTrue();
      assertThat(r.getString(1)).isEqualTo("promptd");
    }
  }

  @Test
  void aRoleLackingARightIsToldWhichAndTheGrantItNamesIsEnough() throws Exception {
    TestPostgres pg = TestPostgres.get();
    try (Connection c = superuser(pg, "postgres");
        Statement s = c.createStatement()) {
      s.execute("CREATE ROLE init_reader LOGIN PASSWORD 'pw'");
      s.execute("CREATE ROLE init_other LOGIN PASSWORD 'pw'");
      s.execute("CREATE ROLE init_nologin PASSWORD 'pw'");
      s.execute("CREATE DATABASE init_rights"); // owned by the superuser, not init_reader
    }
    try (Connection c = superuser(pg, "init_rights");
        Statement s = c.createStatement()) {
      // What PostgreSQL 15 does by default, said outright so that an older server tests it too.
      s.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC");
    }

    Result none = init(pg, "init_reader", "init_nosuch");
    assertThat(none.status()).isEqualTo(Main.FAILED);
    assertThat(none.err())
        .isEqualTo("promptd: database init_nosuch does not exist: as a superuser, CREATE DATABASE"
            + " init_nosuch OWNER init_reader\n");

    Result noLogin = init(pg, "init_nologin", "init_rights");
    assertThat(noLogin.status()).isEqualTo(Main.FAILED);
    assertThat(noLogin.err())
        .isEqualTo("promptd: role init_nologin may not log in: as a superuser, ALTER ROLE"
            + " init_nologin LOGIN\n");

    Result noCreate = init(pg, "init_reader", "init_rights");
    assertThat(noCreate.status()).isEqualTo(Main.FAILED);
    assertThat(noCreate.err())
        .isEqualTo("promptd: role init_reader may not create tables in schema public of database"
            + " init_rights: as the database's owner or a superuser, GRANT CREATE ON SCHEMA public"
            + " TO init_reader (since PostgreSQL 15 only the database's owner may by default; a new"
            + " store's database is best made with CREATE DATABASE init_rights OWNER"
            + " init_reader)\n");
    // A publish, which migrates on first use, logs the same.
    Path prompts = Files.createDirectories(dir.resolve("prompts"));
    Files.writeString(prompts.resolve("a.prompt.md"), "A\n");
    Result publish = StoreCliTest.run(List.of(
        "publish",
        prompts.toString(),
        "--store",
        "postgresql://init_reader:pw@127.0.0.1:" + pg.port() + "/init_rights"));
    assertThat(publish.status()).isEqualTo(Main.FAILED);
    assertThat(publish.err())
        .contains("cannot migrate the store postgresql://init_reader@127.0.0.1:" + pg.port()
            + "/init_rights: role init_reader may not create tables in schema public of database"
            + " init_rights: as the database's owner or a superuser, GRANT CREATE ON SCHEMA public"
            + " TO init_reader (")
        .doesNotContainIgnoringCase("flyway")
        .doesNotContain("script");
    run(pg, "init_rights", grant(noCreate.err()));
    Result created = init(pg, "init_reader", "init_rights");
    assertThat(created.status()).as(created.err()).isZero();
    assertThat(created.out()).startsWith("created the store's schema at version 9 in ");

    run(pg, "init_rights", "REVOKE CONNECT ON DATABASE init_rights FROM PUBLIC");
    Result noConnect = init(pg, "init_reader", "init_rights");
    assertThat(noConnect.status()).isEqualTo(Main.FAILED);
    assertThat(noConnect.err())
        .isEqualTo("promptd: role init_reader may not connect to database init_rights: as the"
            + " database's owner or a superuser, GRANT CONNECT ON DATABASE init_rights TO"
            + " init_reader\n");
    run(pg, "init_rights", grant(noConnect.err()));
    Result current = init(pg, "init_reader", "init_rights");
    assertThat(current.status()).as(current.err()).isZero();
    assertThat(current.out())
        .isEqualTo(
            "the store's schema is current at version 9 in postgresql://init_reader@127.0.0.1:"
                + pg.port() + "/init_rights\n");

    run(pg, "init_rights", "GRANT CREATE ON SCHEMA public TO init_other");
    run(pg, "init_rights", "GRANT CONNECT ON DATABASE init_rights TO init_other");
    Result notOwner = init(pg, "init_other", "init_rights");
    assertThat(notOwner.status()).isEqualTo(Main.FAILED);
    assertThat(notOwner.err())
        .isEqualTo("promptd: the store's tables in database init_rights belong to role"
            + " init_reader, and only it may change them: run promptd store init as init_reader,"
            + " or as a superuser GRANT init_reader TO init_other\n");

    for (Result r :
        List.of(none, noLogin, noCreate, publish, noConnect, notOwner, created, current)) {
      assertThat(r.err())
          .doesNotContainIgnoringCase("flyway")
          .doesNotContain("Exception")
          .doesNotContain("\tat ")
          .doesNotContain("pw@");
    }
  }

  @Test
  void storeWithoutInitOrWithAnArgumentIsAUsageError() throws Exception {
    Result bare = StoreCliTest.run(List.of("store"));
    assertThat(bare.status()).isEqualTo(Main.USAGE);
    assertThat(bare.err()).contains("store needs an action: init");
    Result other = StoreCliTest.run(List.of("store", "drop", "--store", "postgresql://h/db"));
    assertThat(other.status()).isEqualTo(Main.USAGE);
    assertThat(other.err()).contains("store needs an action: init, not 'drop'");
    Result extra =
        StoreCliTest.run(List.of("store", "init", "prompts/", "--store", "postgresql://h/db"));
    assertThat(extra.status()).isEqualTo(Main.USAGE);
    assertThat(extra.err())
        .contains("store init takes no argument but --store URL, not 'prompts/'");
    Result unnamed = StoreCliTest.run(List.of("store", "init"));
    assertThat(unnamed.status()).isEqualTo(Main.USAGE);
    assertThat(unnamed.err()).contains("--store URL or PROMPTD_STORE");
    Result help = StoreCliTest.run(List.of("help", "store"));
    assertThat(help.status()).isZero();
    assertThat(help.err())
        .startsWith("Usage:\n  promptd store init --store URL")
        .contains("GRANT")
        .contains("URL is postgresql://");
  }

  /** The GRANT statement a message names, up to the end of its clause. */
  private static String grant(String message) {
    Matcher m = Pattern.compile("GRANT [A-Za-z_ ]+? TO \\w+").matcher(message);
    assertThat(m.find()).as("a GRANT in: " + message).isTrue();
    return m.group();
  }

  /** PATH with a {@code promptd} that is this build's CLI first, then the system's. */
  private String launcherPath() throws Exception {
    return DocLines.launcher(dir.resolve("bin/promptd")).getParent() + ":" + System.getenv("PATH");
  }

  private Result shell(List<String> command, String stdin, Map<String, String> env)
      throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
    builder.environment().remove("PROMPTD_STORE");
    builder.environment().putAll(env);
    Process p = builder.start();
    p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> CliProcessTest.read(p.getErrorStream()));
    String out = CliProcessTest.read(p.getInputStream());
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished: " + command).isTrue();
    return new Result(p.exitValue(), out, err.get());
  }

  private static Result init(TestPostgres pg, String role, String database) throws Exception {
    return StoreCliTest.run(List.of(
        "store",
        "init",
        "--store",
        "postgresql://" + role + ":pw@127.0.0.1:" + pg.port() + "/" + database));
  }

  private static void run(TestPostgres pg, String database, String statement) throws Exception {
    try (Connection c = superuser(pg, database);
        Statement s = c.createStatement()) {
      s.execute(statement);
    }
  }

  private static Connection superuser(TestPostgres pg, String database) throws Exception {
    return DriverManager.getConnection(
        "jdbc:postgresql://127.0.0.1:" + pg.port() + "/" + database, "postgres", "");
  }
}
