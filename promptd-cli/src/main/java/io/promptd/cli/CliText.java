package io.promptd.cli;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line's own words — usage errors and the common errors about paths — in English,
 * Simplified Chinese or Japanese, as the environment asks ({@code LC_ALL}, {@code LC_MESSAGES},
 * {@code LANG}, read as the server's {@code ServerText.environmentLocale} reads them); a key a
 * language lacks is said in English. It uses the JDK alone: {@code promptd health} runs with this
 * module's classes only, and its usage errors are said through it too.
 */
final class CliText {
  private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d)}");
  private static final Locale CHINESE = Locale.forLanguageTag("zh-CN");
  private static final Map<String, String> ENGLISH_TEXTS = load(Locale.ENGLISH);
  private static final CliText EN = new CliText(Locale.ENGLISH, ENGLISH_TEXTS);
  private static final CliText ZH = new CliText(CHINESE, load(CHINESE));
  private static final CliText JA = new CliText(Locale.JAPANESE, load(Locale.JAPANESE));

  private final Locale locale;
  private final Map<String, String> own;

  private CliText(Locale locale, Map<String, String> own) {
    this.locale = locale;
    this.own = own;
  }

  /** The texts in English. */
  static CliText english() {
    return EN;
  }

  /** The texts in the language {@code environment} asks for; English for any other. */
  static CliText of(Map<String, String> environment) {
    return of(environmentLocale(environment));
  }

  /**
   * The texts in the language {@code environment} asks for, if {@code charset} (the stream's they
   * are written to) can write them; else English, which any can, rather than question marks.
   */
  static CliText of(Map<String, String> environment, Charset charset) {
    CliText text = of(environment);
    return charset.newEncoder().canEncode(text.get("see.help")) ? text : EN;
  }

  /** The texts in {@code locale}'s language; English for one promptd does not speak. */
  static CliText of(Locale locale) {
    return switch (requireNonNull(locale, "locale").getLanguage()) {
      case "ja" -> JA;
      case "zh" -> ZH;
      default -> EN;
    };
  }

  /**
   * The language an environment asks for: the first of {@code LC_ALL}, {@code LC_MESSAGES} and
   * {@code LANG} that is set and not empty, its codeset and modifier cut off; English when that is
   * {@code C}, {@code POSIX}, none, or a language promptd does not speak.
   */
  static Locale environmentLocale(Map<String, String> environment) {
    for (String variable : List.of("LC_ALL", "LC_MESSAGES", "LANG")) {
      String value = environment.get(variable);
      if (value != null && !value.isBlank()) {
        String tag = value.strip().split("[.@]", 2)[0].replace('_', '-');
        return switch (Locale.forLanguageTag(tag).getLanguage()) {
          case "ja" -> Locale.JAPANESE;
          case "zh" -> CHINESE;
          default -> Locale.ENGLISH;
        };
      }
    }
    return Locale.ENGLISH;
  }

  /** The language these texts are in. */
  Locale locale() {
    return locale;
  }

  /**
   * The text {@code key} names with {@code values} put in for {@code {0}}, {@code {1}}…; in English
   * when this language lacks it, and the key itself when no language has it.
   */
  String get(String key, Object... values) {
    String pattern = own.get(key);
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
    return "CliText[" + locale.toLanguageTag() + "]";
  }

  private static Map<String, String> load(Locale locale) {
    String name = "text/" + locale.toLanguageTag() + ".properties";
    try (InputStream in = CliText.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("the command line's texts are missing: " + name);
      }
      Properties p = new Properties();
      try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
        p.load(r);
      }
      Map<String, String> texts = new HashMap<>();
      p.stringPropertyNames().forEach(k -> texts.put(k, p.getProperty(k)));
      return Map.copyOf(texts);
    } catch (IOException e) {
      throw new UncheckedIOException("the command line's texts could not be read: " + name, e);
    }
  }
}
