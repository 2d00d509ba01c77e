package io.promptd.mcp.server.internal.feature;

import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.protocol.AudioContent;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.EmbeddedResource;
import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.ImageContent;
import io.promptd.mcp.protocol.Implementation;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.ResourceLink;
import io.promptd.mcp.protocol.Role;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.PromptFolding;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A rendered prompt folded into one user text message, for clients that use only the first text
 * message ({@link PromptFolding}). In order: where the speaker changes, a line {@code [assistant]}
 * or {@code [user]} (the folded message is the user's, so a prompt that starts with the user has no
 * marker before its first words); text as it is; an embedded text resource between {@code [resource
 * URI (TYPE)]} and {@code [end of resource URI]}; an image, audio or binary resource as
 * {@code [image (TYPE, N bytes), not included]}; a link as {@code [link URI (TYPE, N bytes)]}.
 * Parts are separated by a blank line.
 *
 * <p>The text is held to {@link #MAX_BYTES} bytes of UTF-8. Embedded resources are shortened first,
 * the last first, so that the prompt's own text — the words the user typed among it — stays whole;
 * only a prompt whose own text is longer is cut at its end. Each cut ends in a line that says how
 * much is left out.
 */
final class PromptFold {
  /** The most UTF-8 bytes a folded prompt holds. */
  static final int MAX_BYTES = 256 * 1024;

  private PromptFold() {}

  /**
   * Whether {@code prompt} is folded for {@code client}: its own {@link PromptFolding#META}
   * setting, else the server's; {@code AUTO} for the clients that use only the first text message.
   */
  static boolean wanted(Prompt prompt, PromptFolding server, @Nullable Implementation client) {
    JsonObject meta = prompt.meta();
    PromptFolding own = meta != null && meta.get(PromptFolding.META) instanceof JsonString s
        ? PromptFolding.of(s.value()).orElse(null)
        : null;
    return switch (own != null ? own : server) {
      case ALWAYS -> true;
      case NEVER -> false;
      case AUTO -> ClientQuirks.readsFirstMessageOnly(client);
    };
  }

  /** {@code result} as one user text message of at most {@link #MAX_BYTES} bytes. */
  static GetPromptResult fold(GetPromptResult result) {
    return fold(result, MAX_BYTES);
  }

  /**
   * {@code result} as one user text message of at most {@code maxBytes} bytes; its description and
   * {@code _meta} kept. A result that is one user text message within the bound, or none, is
   * returned as it is.
   */
  static GetPromptResult fold(GetPromptResult result, int maxBytes) {
    List<PromptMessage> messages = result.messages();
    if (messages.isEmpty()) {
      return result;
    }
    PromptMessage first = messages.getFirst();
    if (messages.size() == 1
        && first.role() == Role.USER
        && first.content() instanceof TextContent t
        && utf8Length(t.text()) <= maxBytes) {
      return result;
    }
    List<Block> blocks = blocks(messages);
    String text = within(blocks, maxBytes);
    return new GetPromptResult(
        result.description(),
        List.of(new PromptMessage(Role.USER, TextContent.of(text))),
        result.meta());
  }

  /**
   * One part of the folded text: {@code head}, then {@code body} (the text of an embedded resource,
   * the part that may be shortened) and {@code tail}; a {@code marker} is followed by a line break
   * rather than a blank line.
   */
  record Block(String head, @Nullable String body, String tail, boolean marker) {
    static Block text(String text) {
      return new Block(text, null, "", false);
    }

    /** The block with {@code body} instead of its own. */
    Block withBody(String body) {
      return new Block(head, body, tail, marker);
    }

    String render() {
      if (body == null) {
        return head;
      }
      return head + "\n" + body + (body.endsWith("\n") || body.isEmpty() ? "" : "\n") + tail;
    }
  }

  private static List<Block> blocks(List<PromptMessage> messages) {
    List<Block> blocks = new ArrayList<>();
    Role speaking = Role.USER;
    for (PromptMessage m : messages) {
      if (m.role() != speaking) {
        speaking = m.role();
        blocks.add(new Block("[" + speaking.id() + "]", null, "", true));
      }
      Block b = switch (m.content()) {
        case TextContent t -> t.text().isEmpty() ? null : Block.text(t.text());
        case ImageContent i -> Block.text(omitted("image", i.mimeType(), i.data()));
        case AudioContent a -> Block.text(omitted("audio", a.mimeType(), a.data()));
        case EmbeddedResource e ->
          switch (e.resource()) {
            case TextResourceContents r ->
              new Block(
                  "[resource " + r.uri() + (r.mimeType() == null ? "" : " (" + r.mimeType() + ")")
                      + "]",
                  r.text(),
                  "[end of resource " + r.uri() + "]",
                  false);
            case BlobResourceContents r ->
              Block.text(omitted("resource " + r.uri(), r.mimeType(), r.blob()));
          };
        case ResourceLink l ->
          Block.text("[link " + l.uri() + details(l.mimeType(), l.size()) + "]");
      };
      if (b != null) {
        blocks.add(b);
      }
    }
    return blocks;
  }

  /** The blocks' text: a blank line between blocks, a line break after a speaker's marker. */
  static String join(List<Block> blocks) {
    StringBuilder out = new StringBuilder();
    boolean afterMarker = false;
    for (Block b : blocks) {
      if (!out.isEmpty()) {
        if (out.charAt(out.length() - 1) != '\n') {
          out.append('\n');
        }
        if (!afterMarker) {
          out.append('\n');
        }
      }
      out.append(b.render());
      afterMarker = b.marker();
    }
    return out.toString();
  }

  private static String omitted(String what, @Nullable String mimeType, String base64) {
    return "[" + what + details(mimeType, decodedSize(base64)) + ", not included]";
  }

  private static String details(@Nullable String mimeType, @Nullable Long size) {
    List<String> parts = new ArrayList<>(2);
    if (mimeType != null) {
      parts.add(mimeType);
    }
    if (size != null) {
      parts.add(size + " bytes");
    }
    return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
  }

  /** The number of bytes {@code base64} stands for, without decoding it. */
  static long decodedSize(String base64) {
    long chars = 0;
    for (int i = 0; i < base64.length(); i++) {
      char c = base64.charAt(i);
      if (c != '=' && !Character.isWhitespace(c)) {
        chars++;
      }
    }
    return chars * 3 / 4;
  }

  /**
   * The blocks' text in at most {@code maxBytes} bytes: embedded resources shortened, the last
   * first, then, if that is not enough, the whole cut at its end; each cut followed by its note.
   */
  static String within(List<Block> blocks, int maxBytes) {
    List<Block> kept = new ArrayList<>(blocks);
    String text = join(kept);
    for (int i = kept.size() - 1; i >= 0 && utf8Length(text) > maxBytes; i--) {
      Block b = kept.get(i);
      String body = b.body();
      if (body == null || body.isEmpty()) {
        continue;
      }
      int bodyBytes = utf8Length(body);
      // Room for the note (with as many digits as it can need) on a line of its own.
      int room = bodyBytes
          - (utf8Length(text) - maxBytes)
          - 2
          - utf8Length(cutNote("this resource", bodyBytes, maxBytes));
      String head = prefix(body, Math.max(0, room));
      String cut = head
          + (head.isEmpty() || head.endsWith("\n") ? "" : "\n")
          + cutNote("this resource", bodyBytes - utf8Length(head), maxBytes)
          + "\n";
      kept.set(i, b.withBody(cut));
      text = join(kept);
    }
    int bytes = utf8Length(text);
    if (bytes <= maxBytes) {
      return text;
    }
    String head = prefix(
        text, Math.max(0, maxBytes - 1 - utf8Length(cutNote("the prompt", bytes, maxBytes))));
    return head + "\n" + cutNote("the prompt", bytes - utf8Length(head), maxBytes);
  }

  private static String cutNote(String what, int left, int maxBytes) {
    return "[cut here: the remaining " + left + " bytes of " + what
        + " are not included; a prompt folded into one message holds at most " + maxBytes
        + " bytes]";
  }

  /**
   * The longest start of {@code s} of at most {@code maxBytes} bytes of UTF-8, whole characters.
   */
  static String prefix(String s, int maxBytes) {
    int bytes = 0;
    int i = 0;
    while (i < s.length()) {
      int cp = s.codePointAt(i);
      int n = utf8Length(cp);
      if (bytes + n > maxBytes) {
        break;
      }
      bytes += n;
      i += Character.charCount(cp);
    }
    return s.substring(0, i);
  }

  /** The length of {@code s} in UTF-8 (a lone surrogate counted as three bytes). */
  static int utf8Length(String s) {
    int bytes = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      bytes += utf8Length(cp);
      i += Character.charCount(cp);
    }
    return bytes;
  }

  private static int utf8Length(int codePoint) {
    return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }
}
