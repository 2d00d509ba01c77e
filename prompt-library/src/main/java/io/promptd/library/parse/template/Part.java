package io.promptd.library.parse.template;

import io.promptd.mcp.protocol.Content;
import io.promptd.mcp.protocol.Role;
import org.jspecify.annotations.Nullable;

/** One piece of a prompt body, in order: each becomes one MCP message when rendered. */
public sealed interface Part permits Part.Text, Part.Fixed, Part.InlineResource, Part.Link {
  /**
   * Templated text.
   *
   * @param speaker who says it
   * @param template the text
   * @param line where it starts
   */
  record Text(Speaker speaker, TextTemplate template, int line) implements Part {}

  /**
   * Content read from a file at load time: an image, audio or embedded resource.
   *
   * @param role who sends it
   * @param content the content
   * @param line the directive's line
   */
  record Fixed(Role role, Content content, int line) implements Part {}

  /**
   * An embedded text resource written inline, whose URI and text may use arguments.
   *
   * @param role who sends it
   * @param uri the resource URI
   * @param mimeType the MIME type
   * @param text the resource text
   * @param line the directive's line
   */
  record InlineResource(Role role, TextTemplate uri, String mimeType, TextTemplate text, int line)
      implements Part {}

  /**
   * A link to a resource, whose URI may use arguments.
   *
   * @param role who sends it
   * @param uri the resource URI
   * @param name the resource name, or null to use the last segment of the URI
   * @param mimeType the MIME type, or null
   * @param line the directive's line
   */
  record Link(
      Role role,
      TextTemplate uri,
      @Nullable String name,
      @Nullable String mimeType,
      int line) implements Part {}
}
