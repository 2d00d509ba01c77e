package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The embedded server stays an implementation detail: no Jetty type appears in the public API. */
class ApiSurfaceTest {
  @Test
  void publicTypesAreTheTransportAndItsBuilderOnly() throws Exception {
    List<String> publicTypes = new ArrayList<>();
    for (String name : List.of("HttpTransport", "HttpTransport$Builder", "Exchange", "Guard", "EventLog",
        "LegacyEndpoint", "LegacySession", "McpHandler", "ModernEndpoint", "SessionRegistry",
        "SseWriter", "Eras")) {
      Class<?> c = Class.forName("io.promptd.mcp.http." + name);
      if (Modifier.isPublic(c.getModifiers())) {
        publicTypes.add(c.getSimpleName());
      }
    }
    assertThat(publicTypes).containsExactly("HttpTransport", "Builder");
  }

  @Test
  void noJettyTypeInAnyPublicSignature() {
    for (Class<?> c : List.of(HttpTransport.class, HttpTransport.Builder.class)) {
      assertThat(c.getSuperclass().getName()).doesNotStartWith("org.eclipse");
      for (Method m : c.getMethods()) {
        assertThat(m.getReturnType().getName()).as(m.toString()).doesNotStartWith("org.eclipse");
        for (Class<?> p : m.getParameterTypes()) {
          assertThat(p.getName()).as(m.toString()).doesNotStartWith("org.eclipse");
        }
      }
    }
  }

  @Test
  void theModuleExportsOnlyTheApiPackage() {
    Module module = HttpTransport.class.getModule();
    assertThat(module.getName()).isEqualTo("io.promptd.mcp.http");
    assertThat(module.getDescriptor().exports()).extracting(e -> e.source()).containsExactly("io.promptd.mcp.http");
  }
}
