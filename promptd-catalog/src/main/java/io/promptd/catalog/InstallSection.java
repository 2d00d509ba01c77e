package io.promptd.catalog;

import io.promptd.catalog.links.InstallLinks;
import java.net.URI;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A page's "Add to a client" section: VS Code's and Cursor's install links as buttons and Claude
 * Code's command, for the endpoint the page calls, at the server's public URL or else at the
 * address the visitor used. The links hold the name of the token's variable, never a token (the
 * page does not know one).
 */
final class InstallSection {
  /** Names a {@code Host} header may hold: a name or address and a port, IPv6 in brackets. */
  private static final String HOST =
      "[A-Za-z0-9.\\-]+(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?";

  private InstallSection() {}

  /**
   * The section's HTML, or empty when no URL can be formed (no public URL and no usable
   * {@code Host}).
   *
   * @param page the page, whose endpoint the links add
   * @param install where the server is reached and how the token is read
   * @param host the {@code Host} the visitor sent, which the transport has checked; null when
   *     absent
   * @param words the page's language
   */
  static String html(
      WebCatalog.Page page, WebCatalog.Install install, @Nullable String host, CatalogText words) {
    URI url = url(page, install, host);
    if (url == null) {
      return "";
    }
    InstallLinks.Http server = new InstallLinks.Http(name(page), url, install.tokenVariable());
    String variable = install.tokenVariable();
    String token = variable == null
        ? ""
        : " " + said(words, "install.token", "<code>" + text(variable) + "</code>");
    return """
        <aside class="install" aria-label="%s">
        <details id="install">
        <summary>%s</summary>
        <p class="hint">%s%s</p>
        <p class="install-buttons"><a class="install-button" id="install-vscode" href="%s">%s</a>\
        <a class="install-button" id="install-cursor" href="%s">%s</a></p>
        <p class="install-claude">%s</p>
        </details>
        </aside>
        """.formatted(
        text(words.get("install.label")),
        text(words.get("install.summary")),
        said(
            words,
            "install.adds",
            "<code id=\"install-url\">" + text(url.toString()) + "</code>",
            "<code>" + text(server.name()) + "</code>"),
        token,
        text(InstallLinks.vscodeLink(server)),
        text(words.get("install.vscode")),
        text(InstallLinks.cursorLink(server)),
        text(words.get("install.cursor")),
        said(
            words,
            "install.claude",
            "<code id=\"install-claude\">" + text(InstallLinks.claudeCommand(server)) + "</code>"));
  }

  /**
   * Text {@code key} as HTML: its own words escaped, {@code html} (markup this class made) put in
   * for its placeholders as it is.
   */
  private static String said(CatalogText words, String key, String... html) {
    Object[] marks = new Object[html.length];
    for (int i = 0; i < html.length; i++) {
      marks[i] = "\u0000" + i + "\u0000";
    }
    String out = text(words.get(key, marks));
    for (int i = 0; i < html.length; i++) {
      out = out.replace("\u0000" + i + "\u0000", html[i]);
    }
    return out;
  }

  /**
   * The page's endpoint at the public URL's scheme and authority, else at the visitor's
   * {@code Host}.
   */
  private static @Nullable URI url(
      WebCatalog.Page page, WebCatalog.Install install, @Nullable String host) {
    URI base = install.publicUrl();
    try {
      if (base != null) {
        return URI.create(base.getScheme().toLowerCase(Locale.ROOT) + "://" + base.getRawAuthority()
            + page.endpoint());
      }
      if (host == null || !host.matches(HOST)) {
        return null;
      }
      return URI.create((install.tls() ? "https" : "http") + "://" + host + page.endpoint());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * {@code promptd} for the default endpoint, {@code promptd-LABEL} for a label's (as a client's
   * name allows).
   */
  private static String name(WebCatalog.Page page) {
    String label = page.label();
    if (label == null || page.path().equals("/")) {
      return "promptd";
    }
    String name = "promptd-" + label.replaceAll("[^A-Za-z0-9_-]", "-");
    return name.length() > 64 ? name.substring(0, 64) : name;
  }

  /** {@code value} fit for HTML text and double-quoted attributes. */
  private static String text(String value) {
    return value
        .replace("&", "&amp;")
        .replace("\"", "&quot;")
        .replace("<", "&lt;")
        .replace(">", "&gt;");
  }
}
