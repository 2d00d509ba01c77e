package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import io.promptd.mcp.api.Stability;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The words promptd shows a person — form frames, field hints, argument errors — in one of the
 * languages it speaks: English, Simplified Chinese and Japanese. Each text has a stable key; a key
 * a language lacks is said in English. Texts take their values as {@code {0}}, {@code {1}}… (names
 * and values are put in as they are, never translated).
 *
 * <p>A server says its texts in its {@linkplain McpServer.Builder#locale locale}; a prompt may
 * choose its own through its {@code _meta} {@value #LOCALE_META} (a language tag), which the prompt
 * library writes from the front matter's {@code locale:}.
 */
@Stability(Stability.Tier.EXPERIMENTAL)
public final class ServerText {
  /** The prompt {@code _meta} key naming the language of a prompt's texts (a language tag). */
  public static final String LOCALE_META = "io.promptd/locale";

  private static final Locale CHINESE = Locale.forLanguageTag("zh-CN");
  private static final List<Locale> LOCALES = List.of(Locale.ENGLISH, CHINESE, Locale.JAPANESE);
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d)}");
  private static final Map<String, String> ENGLISH_TEXTS = load(Locale.ENGLISH);
  private static final ServerText EN = new ServerText(Locale.ENGLISH, ENGLISH_TEXTS);
  private static final ServerText ZH = new ServerText(CHINESE, load(CHINESE));
  private static final ServerText JA = new ServerText(Locale.JAPANESE, load(Locale.JAPANESE));

  private final Locale locale;
  private final Map<String, String> texts;

  private ServerText(Locale locale, Map<String, String> texts) {
    this.locale = locale;
    this.texts = texts;
  }

  /** The languages promptd speaks: {@code en}, {@code zh-CN}, {@code ja}. */
  public static List<Locale> locales() {
    return LOCALES;
  }

  /** The texts in English, the language of every text a translation lacks. */
  public static ServerText english() {
    return EN;
  }

  /**
   * The language promptd speaks that serves {@code requested}: its language's (any Chinese is
   * answered in Simplified Chinese), or empty when promptd does not speak it.
   */
  public static Optional<Locale> supported(Locale requested) {
    return Optional.ofNullable(
        switch (requireNonNull(requested, "requested").getLanguage()) {
          case "en" -> Locale.ENGLISH;
          case "zh" -> CHINESE;
          case "ja" -> Locale.JAPANESE;
          default -> null;
        });
  }

  /**
   * The language a tag names, if promptd speaks it: a BCP 47 tag ({@code ja}, {@code zh-CN}) or a
   * POSIX locale name ({@code ja_JP.UTF-8}; {@code C} and {@code POSIX} are English); empty for any
   * other.
   */
  public static Optional<Locale> parse(String tag) {
    String t = requireNonNull(tag, "tag").strip();
    int cut = indexOfAny(t, ".@");
    if (cut >= 0) {
      t = t.substring(0, cut);
    }
    if (t.isEmpty()) {
      return Optional.empty();
    }
    if (t.equals("C") || t.equals("POSIX")) {
      return Optional.of(Locale.ENGLISH);
    }
    return supported(Locale.forLanguageTag(t.replace('_', '-')));
  }

  /**
   * The language an environment asks for, as POSIX programs read it: the first of {@code LC_ALL},
   * {@code LC_MESSAGES} and {@code LANG} that is set and not empty; English when that is {@code C},
   * {@code POSIX}, none, or a language promptd does not speak.
   */
  public static Locale environmentLocale(Map<String, String> environment) {
    for (String variable : List.of("LC_ALL", "LC_MESSAGES", "LANG")) {
      String value = environment.get(variable);
      if (value != null && !value.isBlank()) {
        return parse(value).orElse(Locale.ENGLISH);
      }
    }
    return Locale.ENGLISH;
  }

  /** The texts in {@code locale}'s language; in English when promptd does not speak it. */
  public static ServerText of(Locale locale) {
    Locale l = supported(locale).orElse(Locale.ENGLISH);
    return l.equals(Locale.JAPANESE) ? JA : l.equals(CHINESE) ? ZH : EN;
  }

  /**
   * The texts for a prompt with {@code meta}: in the language its {@value #LOCALE_META} names when
   * promptd speaks it, else {@code fallback} (the server's).
   */
  public static ServerText forPrompt(@Nullable JsonObject meta, ServerText fallback) {
    requireNonNull(fallback, "fallback");
    if (meta != null && meta.get(LOCALE_META) instanceof JsonString tag) {
      return parse(tag.value()).map(ServerText::of).orElse(fallback);
    }
    return fallback;
  }

  /** The language these texts are in. */
  public Locale locale() {
    return locale;
  }

  /**
   * The text {@code key} names with {@code values} put in for {@code {0}}, {@code {1}}…; in English
   * when this language lacks it, and the key itself when no language has it.
   */
  public String get(String key, Object... values) {
    String pattern = texts.get(key);
    if (pattern == null) {
      pattern = ENGLISH_TEXTS.getOrDefault(key, key);
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

  /** The keys this language has its own text for. */
  Set<String> keys() {
    return new TreeSet<>(texts.keySet());
  }

  /** The placeholders ({@code {0}}…) text {@code key} takes in this language. */
  Set<String> placeholders(String key) {
    Set<String> found = new TreeSet<>();
    Matcher m = PLACEHOLDER.matcher(texts.getOrDefault(key, ""));
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }

  @Override
  public String toString() {
    return "ServerText[" + locale.toLanguageTag() + "]";
  }

  private static Map<String, String> load(Locale locale) {
    String name = "text/" + locale.toLanguageTag() + ".properties";
    try (InputStream in = ServerText.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("promptd's texts are missing: " + name);
      }
      Properties p = new Properties();
      try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        p.load(r);
      }
      Map<String, String> texts = new java.util.HashMap<>();
      p.stringPropertyNames().forEach(k -> texts.put(k, p.getProperty(k)));
      return Map.copyOf(texts);
    } catch (IOException e) {
      throw new UncheckedIOException("promptd's texts could not be read: " + name, e);
    }
  }

  private static int indexOfAny(String s, String chars) {
    for (int i = 0; i < s.length(); i++) {
      if (chars.indexOf(s.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }
}
