package io.promptd.cli;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The cursors of {@code /manage/v1/prompts}: the last path of a page, base64url-encoded so that
 * callers treat it as opaque. A cursor names a place in the order of paths, not a file: it reveals
 * nothing the page did not show.
 */
final class ManageCursor {
  private ManageCursor() {}

  static String of(String lastPath) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(lastPath.getBytes(StandardCharsets.UTF_8));
  }

  /** The path a cursor stands after. */
  static String path(String cursor) throws ManageApi.Refused {
    try {
      return new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new ManageApi.Refused(
          400, "'cursor' is not one this API gave: pass the nextCursor of the page before");
    }
  }
}
