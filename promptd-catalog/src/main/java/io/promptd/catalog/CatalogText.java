package io.promptd.catalog;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.server.ServerText;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The web catalog's own words — headings, buttons, labels, empty states, errors — in the languages
 * promptd speaks ({@link ServerText#locales()}), chosen per request by its {@code Accept-Language}.
 * They live in this module's {@code text/*.properties}, beside the page they belong to; a key a
 * language lacks is said in English. The page's HTML is written in English and finds each text by
 * its English words; its scripts read the texts from the JSON the page carries ({@link #json()}).
 */
final class CatalogText {
  /** The install section's keys: written by the server into the page, not read by scripts. */
  private static final String INSTALL = "install.";

  private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d)}");
  private static final Map<String, String> ENGLISH_TEXTS = load(Locale.ENGLISH);
  private static final Map<Locale, CatalogText> ALL = all();

  private final Locale locale;
  private final Map<String, String> own;

  private CatalogText(Locale locale, Map<String, String> own) {
    this.locale = locale;
    this.own = own;
  }

  /** The texts in {@code locale}'s language; in English when promptd does not speak it. */
  static CatalogText of(Locale locale) {
    Locale l = ServerText.supported(requireNonNull(locale, "locale")).orElse(Locale.ENGLISH);
    return requireNonNull(ALL.get(l), l.toLanguageTag());
  }

  /**
   * The language to answer a request in: the first language promptd speaks among those
   * {@code Accept-Language} names, by their q-values (the order given among equal ones; {@code q=0}
   * refuses one); {@code fallback} (the server's) when it names none, names {@code *} first, or is
   * absent. A malformed entry is skipped, not the header.
   */
  static Locale choose(@Nullable String acceptLanguage, Locale fallback) {
    requireNonNull(fallback, "fallback");
    if (acceptLanguage == null) {
      return fallback;
    }
    record Range(String tag, double q) {}
    List<Range> ranges = new ArrayList<>();
    for (String entry : acceptLanguage.split(",", -1)) {
      String[] parts = entry.split(";", -1);
      String tag = parts[0].strip();
      double q = 1;
      for (int i = 1; i < parts.length; i++) {
        String p = parts[i].strip();
        if (p.length() > 2 && (p.startsWith("q=") || p.startsWith("Q="))) {
          q = quality(p.substring(2));
        }
      }
      if (q > 0 && (tag.equals("*") || tag.matches("[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*"))) {
        ranges.add(new Range(tag, q));
      }
    }
    ranges.sort(Comparator.comparingDouble(Range::q).reversed());
    for (Range r : ranges) {
      if (r.tag().equals("*")) {
        return fallback;
      }
      Optional<Locale> spoken = ServerText.supported(Locale.forLanguageTag(r.tag()));
      if (spoken.isPresent()) {
        return spoken.get();
      }
    }
    return fallback;
  }

  /** Every text in English, by key. */
  static Map<String, String> english() {
    return ENGLISH_TEXTS;
  }

  /** The language these texts are in. */
  Locale locale() {
    return locale;
  }

  /** Its BCP 47 tag, as {@code <html lang>} and {@code Content-Language} carry it. */
  String tag() {
    return locale.toLanguageTag();
  }

  /**
   * The text {@code key} names with {@code values} put in for {@code {0}}, {@code {1}}…; in English
   * when this language lacks it.
   *
   * @throws IllegalArgumentException when no language has {@code key} (a page that names a text
   *     nobody wrote is a bug, found when the catalog is mounted)
   */
  String get(String key, Object... values) {
    String pattern = own.get(key);
    if (pattern == null) {
      pattern = ENGLISH_TEXTS.get(key);
    }
    if (pattern == null) {
      throw new IllegalArgumentException("the catalog has no text '" + key + "'");
    }
    Matcher m = PLACEHOLDER.matcher(pattern);
    StringBuilder out = new StringBuilder(pattern.length() + 32);
    while (m.find()) {
      int n = m.group(1).charAt(0) - '0';
      m.appendReplacement(
          out, Matcher.quoteReplacement(n < values.length ? String.valueOf(values[n]) : m.group()));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * Every text the scripts may write (not the install section's, which the server writes), English
   * for those this language lacks, as one JSON object, which the page carries in its {@code <body
   * data-texts>} ({@code <}, {@code >} and {@code &} written as JSON escapes, so it holds no markup
   * wherever it is put).
   */
  String json() {
    Map<String, String> merged = new TreeMap<>(ENGLISH_TEXTS);
    merged.putAll(own);
    merged.keySet().removeIf(k -> k.startsWith(INSTALL));
    StringBuilder out = new StringBuilder("{");
    merged.forEach((k, v) -> {
      if (out.length() > 1) {
        out.append(',');
      }
      string(out, k);
      out.append(':');
      string(out, v);
    });
    return out.append('}').toString();
  }

  /** The keys this language has its own text for. */
  Set<String> keys() {
    return new TreeSet<>(own.keySet());
  }

  /** The placeholders ({@code {0}}…) text {@code key} takes in this language. */
  Set<String> placeholders(String key) {
    Set<String> found = new TreeSet<>();
    Matcher m = PLACEHOLDER.matcher(own.getOrDefault(key, ""));
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }

  @Override
  public String toString() {
    return "CatalogText[" + tag() + "]";
  }

  private static double quality(String value) {
    try {
      double q = Double.parseDouble(value.strip());
      return q >= 0 && q <= 1 ? q : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '<', '>', '&' -> out.append(String.format("\\u%04x", (int) c));
        default -> {
          if (c < 0x20 || c == '\u2028' || c == '\u2029') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  private static Map<Locale, CatalogText> all() {
    Map<Locale, CatalogText> texts = new HashMap<>();
    for (Locale l : ServerText.locales()) {
      texts.put(l, new CatalogText(l, l.equals(Locale.ENGLISH) ? ENGLISH_TEXTS : load(l)));
    }
    return Map.copyOf(texts);
  }

  private static Map<String, String> load(Locale locale) {
    String name = "text/" + locale.toLanguageTag() + ".properties";
    try (InputStream in = CatalogText.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the catalog's texts are missing from the jar: " + name);
      }
      Properties p = new Properties();
      try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        p.load(r);
      }
      Map<String, String> texts = new HashMap<>();
      p.stringPropertyNames().forEach(k -> texts.put(k, p.getProperty(k)));
      return Map.copyOf(texts);
    } catch (IOException e) {
      throw new UncheckedIOException("the catalog's texts could not be read: " + name, e);
    }
  }
}
