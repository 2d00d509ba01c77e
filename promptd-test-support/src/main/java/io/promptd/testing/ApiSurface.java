package io.promptd.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.annotation.Annotation;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A module's public API as the module itself declares it: every public type in an exported package
 * (found by reading the compiled {@code module-info.class} and the class files beside it, so a new
 * public class cannot slip past a hand-written list), with its public and protected members. Tests
 * compare it with a reviewed listing in {@code src/test/resources/api-surface.txt}; run the test
 * with {@code -Dapi.surface.update=true} to rewrite the listing after a deliberate change, then
 * review the diff.
 */
public final class ApiSurface {
  /** The annotation every public top-level type carries. */
  private static final String STABILITY = "io.promptd.mcp.api.Stability";

  /** Jars opened as file systems, kept open for the test run. */
  private static final Map<Path, FileSystem> JARS = new HashMap<>();

  private ApiSurface() {}

  /**
   * The module descriptor compiled next to {@code anchor}, whether the test runs on the class or
   * module path.
   */
  public static ModuleDescriptor descriptor(Class<?> anchor) throws IOException {
    try (InputStream in = Files.newInputStream(classesRoot(anchor).resolve("module-info.class"))) {
      return ModuleDescriptor.read(in);
    }
  }

  /** The packages the module exports to everyone (qualified exports are not public API). */
  public static Set<String> exportedPackages(Class<?> anchor) throws IOException {
    return descriptor(anchor).exports().stream()
        .filter(e -> !e.isQualified())
        .map(ModuleDescriptor.Exports::source)
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /**
   * One line per public type ({@code class io.x.Foo}), sorted by name, each followed by its public
   * and protected members, sorted ({@code method bar(java.lang.String) -> int}). The methods every
   * record and enum has are left out.
   */
  public static List<String> listing(Class<?> anchor) throws IOException {
    List<Class<?>> types = new ArrayList<>(publicTypes(anchor));
    types.sort((x, y) -> x.getName().compareTo(y.getName()));
    List<String> lines = new ArrayList<>();
    for (Class<?> type : types) {
      String tier = tier(type).map(t -> " (" + t + ")").orElse("");
      lines.add((type.isInterface()
              ? "interface "
              : type.isRecord() ? "record " : type.isEnum() ? "enum " : "class ")
          + type.getName()
          + tier);
      lines.addAll(members(type));
    }
    return lines;
  }

  /**
   * The stability tier a top-level type declares ({@code io.promptd.mcp.api.Stability}, read by
   * name: this module depends on none of promptd's), lower-case; empty for a nested type, which has
   * its enclosing type's, or for a type without one.
   */
  private static Optional<String> tier(Class<?> type) {
    if (type.getEnclosingClass() != null) {
      return Optional.empty();
    }
    for (Annotation a : type.getAnnotations()) {
      if (a.annotationType().getName().equals(STABILITY)) {
        try {
          Object value = a.annotationType().getMethod("value").invoke(a);
          return Optional.of(value.toString().toLowerCase(Locale.ROOT));
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException("ApiSurface: cannot read " + a, e);
        }
      }
    }
    return Optional.empty();
  }

  /** The public and protected members a type declares, sorted, indented under it. */
  private static Set<String> members(Class<?> type) {
    Set<String> lines = new TreeSet<>();
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (visible(c) && !type.isEnum()) {
        lines.add("  constructor " + params(c.getParameterTypes()));
      }
    }
    for (Method m : type.getDeclaredMethods()) {
      if (visible(m) && !m.isSynthetic() && !m.isBridge()) {
        lines.add("  method " + m.getName() + params(m.getParameterTypes()) + " -> "
            + m.getGenericReturnType().getTypeName());
      }
    }
    for (Field f : type.getDeclaredFields()) {
      if (visible(f) && !f.isSynthetic()) {
        lines.add("  field " + f.getName() + " : " + f.getGenericType().getTypeName());
      }
    }
    return lines;
  }

  /**
   * Checks {@link #listing} against the reviewed listing in {@code expected} (one line each). With
   * {@code -Dapi.surface.update=true} it writes the current listing there instead, for review in
   * the diff.
   *
   * @throws AssertionError naming what was added and what went missing
   */
  public static void assertListingMatches(Class<?> anchor, Path expected) throws IOException {
    List<String> untiered = publicTypes(anchor).stream()
        .filter(t -> t.getEnclosingClass() == null && tier(t).isEmpty())
        .map(Class::getName)
        .toList();
    if (!untiered.isEmpty()) {
      throw new AssertionError("public types of " + descriptor(anchor).name()
          + " without a stability tier (annotate them with @" + STABILITY + "): " + untiered);
    }
    List<String> actual = listing(anchor);
    if (Boolean.getBoolean("api.surface.update")) {
      Files.write(expected, actual, StandardCharsets.UTF_8);
      return;
    }
    List<String> reviewed =
        Files.exists(expected) ? Files.readAllLines(expected, StandardCharsets.UTF_8) : List.of();
    if (!actual.equals(reviewed)) {
      List<String> added = actual.stream().filter(l -> !reviewed.contains(l)).toList();
      List<String> removed = reviewed.stream().filter(l -> !actual.contains(l)).toList();
      throw new AssertionError(
          "the public API of " + descriptor(anchor).name() + " differs from " + expected
              + " (review the change, then rerun with -Dapi.surface.update=true)\n  added: " + added
              + "\n  removed: "
              + removed);
    }
  }

  /**
   * Every public type in an exported package, nested ones included when every enclosing type is
   * public.
   */
  public static List<Class<?>> publicTypes(Class<?> anchor) throws IOException {
    Path root = classesRoot(anchor);
    List<Class<?>> types = new ArrayList<>();
    for (String pkg : exportedPackages(anchor)) {
      Path dir = root.resolve(pkg.replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.sorted().toList()) {
          String name = file.getFileName().toString();
          if (name.endsWith(".class") && !name.equals("package-info.class")) {
            Class<?> type =
                load(anchor, pkg + "." + name.substring(0, name.length() - ".class".length()));
            if (isApi(type)) {
              types.add(type);
            }
          }
        }
      }
    }
    return types;
  }

  /**
   * Compiles the exported packages' sources again with javac's doclint and returns every public or
   * protected declaration that has no Javadoc comment at all (doclint's "no comment"), as
   * {@code File.java:LINE}. Missing {@code @param}/{@code @return} tags are not reported: the
   * project's style is a summary sentence.
   *
   * @param anchor a class of the module
   * @param sourceRoot the module's {@code src/main/java}
   */
  public static List<String> undocumented(Class<?> anchor, Path sourceRoot) throws IOException {
    List<Path> sources = new ArrayList<>();
    for (String pkg : exportedPackages(anchor)) {
      try (Stream<Path> files = Files.list(sourceRoot.resolve(pkg.replace('.', '/')))) {
        files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(sources::add);
      }
    }
    // javac through java.util.spi.ToolProvider (java.base), so the test module needs no
    // java.compiler.
    ToolProvider javac = ToolProvider.findFirst("javac")
        .orElseThrow(() -> new IllegalStateException("the doclint pass needs a JDK (javac)"));
    Path out = Files.createTempDirectory("api-doclint-");
    StringWriter text = new StringWriter();
    try (PrintWriter writer = new PrintWriter(text)) {
      List<String> args = new ArrayList<>(List.of(
          "-proc:none",
          "-implicit:none",
          "-Xdoclint:missing/protected",
          "-Xmaxwarns",
          "100000",
          "-XDrawDiagnostics",
          "-d",
          out.toString(),
          "-cp",
          location(anchor)
              + File.pathSeparator
              + System.getProperty("java.class.path")
              + File.pathSeparator
              + modulePath()));
      sources.forEach(f -> args.add(f.toString()));
      int status = javac.run(writer, writer, args.toArray(String[]::new));
      if (status != 0) {
        throw new IllegalStateException("the doclint pass could not compile the sources:\n" + text);
      }
    } finally {
      deleteTree(out);
    }
    // -XDrawDiagnostics prints "File.java:LINE:COL: compiler.warn.proc.messager: no comment"
    // (doclint's messages are not localized keys there); javac runs with the default locale, so the
    // texts are matched as printed in English.
    List<String> missing = new ArrayList<>();
    for (String line : text.toString().lines().toList()) {
      if (line.endsWith(": no comment") || line.endsWith("which does not provide a comment")) {
        missing.add(line.strip());
      }
    }
    return missing;
  }

  /**
   * Where the module's own classes were loaded from: its {@code target/classes} folder or its jar.
   */
  public static Path location(Class<?> anchor) {
    try {
      return Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The root of the module's classes, browsable as files: the folder itself, or the inside of the
   * jar.
   */
  public static Path classesRoot(Class<?> anchor) throws IOException {
    Path location = location(anchor);
    if (Files.isDirectory(location)) {
      return location;
    }
    synchronized (JARS) {
      FileSystem jar = JARS.get(location);
      if (jar == null) {
        jar = FileSystems.newFileSystem(location);
        JARS.put(location, jar);
      }
      return jar.getPath("/");
    }
  }

  private static String modulePath() {
    String path = System.getProperty("jdk.module.path");
    return path == null ? "" : path;
  }

  private static boolean isApi(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (!Modifier.isPublic(c.getModifiers())
          || c.isAnonymousClass()
          || c.isLocalClass()
          || c.isSynthetic()) {
        return false;
      }
    }
    return true;
  }

  private static boolean visible(Member m) {
    int mod = m.getModifiers();
    boolean open = Modifier.isPublic(mod)
        || (Modifier.isProtected(mod) && !Modifier.isFinal(m.getDeclaringClass().getModifiers()));
    return open && !(m instanceof Method method && isEnumOrRecordPlumbing(method));
  }

  /** Methods every enum or record has (values, valueOf, accessor-free equals/hashCode/toString). */
  private static boolean isEnumOrRecordPlumbing(Method m) {
    Class<?> owner = m.getDeclaringClass();
    String name = m.getName();
    boolean objectMethod = (name.equals("equals") && m.getParameterCount() == 1)
        || ((name.equals("hashCode") || name.equals("toString")) && m.getParameterCount() == 0);
    if (owner.isRecord() && objectMethod) {
      return true;
    }
    return owner.isEnum()
        && ((name.equals("values") && m.getParameterCount() == 0)
            || (name.equals("valueOf") && m.getParameterCount() == 1));
  }

  private static String params(Class<?>[] types) {
    return Arrays.stream(types).map(Class::getTypeName).collect(Collectors.joining(", ", "(", ")"));
  }

  private static Class<?> load(Class<?> anchor, String name) {
    try {
      return Class.forName(name, false, anchor.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("cannot load " + name, e);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
