package io.promptd.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How docs/oauth.md's admin REST calls are read: one call a line, bodies and names below it. */
class AdminCallsTest {
  @Test
  void callsBodiesOverIndentedLinesAndWhatEachGivesBack() {
    List<AdminCalls.Call> calls = AdminCalls.read("""
        POST /admin/realms/r/client-scopes               {"name": "ops",
               "protocol": "openid-connect"}
               → OPS_SCOPE_ID
        GET  /admin/realms/r/roles/ops                   → ROLE (the role's JSON)
        PUT  /admin/realms/r/default-default-client-scopes/OPS_SCOPE_ID
        GET  /admin/realms/r/components?type=T
               → POLICY_ID, REALM_ID: the "id" and "parentId" of the entry with "providerId": "th" and "subType": "anonymous"
        """);
    assertThat(calls)
        .containsExactly(
            new AdminCalls.Call(
                "POST",
                "/admin/realms/r/client-scopes",
                "{\"name\": \"ops\",\n\"protocol\": \"openid-connect\"}",
                new AdminCalls.Result(List.of("OPS_SCOPE_ID"), List.of(), List.of())),
            new AdminCalls.Call(
                "GET",
                "/admin/realms/r/roles/ops",
                null,
                new AdminCalls.Result(List.of("ROLE"), List.of(), List.of())),
            new AdminCalls.Call(
                "PUT", "/admin/realms/r/default-default-client-scopes/OPS_SCOPE_ID", null, null),
            new AdminCalls.Call(
                "GET",
                "/admin/realms/r/components?type=T",
                null,
                new AdminCalls.Result(
                    List.of("POLICY_ID", "REALM_ID"),
                    List.of("id", "parentId"),
                    List.of(List.of("providerId", "th"), List.of("subType", "anonymous")))));
  }

  @Test
  void aLineThatIsNoCallIsSaidWithTheLine() {
    assertThatThrownBy(() -> AdminCalls.read("POST\n")).hasMessage("not METHOD PATH [BODY]: POST");
    assertThatThrownBy(() -> AdminCalls.read("GET /x\n       → the entry with \"a\": \"b\"\n"))
        .hasMessageStartingWith("neither '→ NAME (…)' nor");
    assertThatThrownBy(() -> AdminCalls.read("POST /x {}\n       → ID\n       {\"more\": 1}\n"))
        .hasMessage("POST /x: its body goes on after → … : {\"more\": 1}");
  }
}
