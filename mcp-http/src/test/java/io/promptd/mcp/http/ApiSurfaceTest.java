package io.promptd.mcp.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The embedded server and the JOSE library stay implementation details: no Jetty or Nimbus type
 * appears in the public API. (The public types themselves are listed and reviewed by
 * ApiListingTest, from the module's exports.)
 */
class ApiSurfaceTest {
  @Test
  void noJettyTypeInAnyPublicSignature() {
    for (Class<?> c :
        List.of(HttpTransport.class, HttpTransportBuilder.class, OAuthSettings.class)) {
      assertThat(c.getSuperclass().getName()).doesNotStartWith("org.eclipse");
      for (Method m : c.getMethods()) {
        assertThat(m.getReturnType().getName())
            .as(m.toString())
            .doesNotStartWith("org.eclipse")
            .doesNotStartWith("com.nimbusds");
        for (Class<?> p : m.getParameterTypes()) {
          assertThat(p.getName())
              .as(m.toString())
              .doesNotStartWith("org.eclipse")
              .doesNotStartWith("com.nimbusds");
        }
      }
    }
  }

  /**
   * The mount seam's own request and response: an embedder's page or metrics see no Jetty type
   * either.
   */
  @Test
  void noJettyTypeInTheMountSeam() {
    for (Class<?> c : List.of(HttpMount.class, MountRequest.class, MountResponse.class)) {
      assertThat(c.getInterfaces()).isEmpty();
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
    assertThat(module.getDescriptor().exports())
        .extracting(e -> e.source())
        .containsExactly("io.promptd.mcp.http");
  }
}
