package io.promptd.mcp.protocol;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * An icon for a prompt, resource or implementation.
 *
 * @param src an {@code https:} or {@code data:} URI
 * @param mimeType the MIME type, or null
 * @param sizes sizes such as {@code "48x48"} or {@code "any"}
 * @param theme {@code "light"}, {@code "dark"} or null
 */
@Stability(Stability.Tier.STABLE)
public record Icon(
    String src,
    @Nullable String mimeType,
    List<String> sizes,
    @Nullable String theme) {
  /** Checks the fields. */
  public Icon {
    requireNonNull(src, "src");
    sizes = List.copyOf(sizes);
    if (theme != null && !theme.equals("light") && !theme.equals("dark")) {
      throw new IllegalArgumentException(
          "icon theme must be \"light\" or \"dark\", not \"" + theme + '"');
    }
  }
}
