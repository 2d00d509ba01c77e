package io.promptd.library.internal.skills;

import io.promptd.library.parse.text.ParseException;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonBoolean;
import io.promptd.mcp.json.JsonNull;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.mcp.jsonrpc.McpException;
import io.promptd.mcp.protocol.BlobResourceContents;
import io.promptd.mcp.protocol.Resource;
import io.promptd.mcp.protocol.ResourceContents;
import io.promptd.mcp.protocol.Skill;
import io.promptd.mcp.protocol.SkillResource;
import io.promptd.mcp.protocol.TextResourceContents;
import io.promptd.mcp.server.SkillProvider;
import io.promptd.mcp.spi.Caller;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The library's skills in the Skills extension's shape: {@code skill://<skill-path>/SKILL.md}
 * entries whose manifests list every file, a nested skill's files included (they are supporting
 * files of the skill enclosing them), and whose visibility follows the skill's {@code _folder.yaml}
 * scopes. Mapped once per snapshot of skills.
 */
public final class LibrarySkills implements SkillProvider {
  /** The URI scheme skill files are served under. */
  static final String SCHEME = "skill://";

  /** The content type of a directory resource. */
  static final String DIRECTORY = "inode/directory";

  private final Supplier<List<SkillFolder>> source;
  private final Reader reader;
  private final Consumer<Path> stale;
  private final EncodedFiles encoded = EncodedFiles.sized();
  private volatile Mapped mapped =
      new Mapped(List.of(), List.of(), Map.of(), List.of(), Map.of(), Set.of());

  /**
   * @param source the skills served now
   * @param reader reads a skill's file
   * @param stale told of a file whose bytes no longer match the entry that lists it (or that cannot
   *     be read), so that the skill is read again: a client that finds a file changed refreshes the
   *     entry with {@code skills/get} and must then find the bytes it describes, even when no
   *     watcher saw the change
   */
  public LibrarySkills(Supplier<List<SkillFolder>> source, Reader reader, Consumer<Path> stale) {
    this.source = source;
    this.reader = reader;
    this.stale = stale;
  }

  /** Reads a skill's file from the library's source, at most {@code limit} bytes. */
  public interface Reader {
    byte[] read(Path file, long limit) throws ParseException;
  }

  /**
   * One served file: the skill it belongs to (the innermost, for a nested skill's file) and its
   * manifest entry.
   */
  private record Owned(SkillFolder skill, SkillFile file) {}

  /**
   * The entries of one snapshot, each entry's scopes by URI, the skill files as resources (sorted
   * by URI) and the files by URI.
   */
  private record Mapped(
      List<SkillFolder> from,
      List<Skill> entries,
      Map<String, Set<String>> scopes,
      List<Resource> resources,
      Map<String, Owned> files,
      Set<String> directories) {}

  @Override
  public List<Skill> skills() {
    return current().entries();
  }

  @Override
  public boolean visible(Caller caller, String uri) {
    Set<String> scopes = current().scopes().get(uri);
    return scopes != null && caller.permits(scopes);
  }

  @Override
  public boolean directoryRead() {
    return true;
  }

  /**
   * The direct children of a skill's root or of a folder inside a skill, as far as {@code caller}
   * may see: a folder is a child when it holds a file the caller may see, and a directory the
   * caller can see nothing in is unknown.
   */
  @Override
  public Optional<List<Resource>> children(String uri, Caller caller) {
    Mapped m = current();
    if (!m.directories().contains(uri)) {
      return Optional.empty();
    }
    String prefix = uri + "/";
    Map<String, Resource> children = new TreeMap<>();
    boolean any = false;
    for (Resource r : m.resources()) {
      Owned owned = m.files().get(r.uri());
      if (!r.uri().startsWith(prefix)
          || owned == null
          || !caller.permits(owned.skill().scopes())) {
        continue;
      }
      any = true;
      String rest = r.uri().substring(prefix.length());
      int slash = rest.indexOf('/');
      if (slash < 0) {
        children.put(r.uri(), r);
      } else {
        String name = rest.substring(0, slash);
        children.computeIfAbsent(
            prefix + name,
            d -> new Resource(d, name, null, null, DIRECTORY, null, null, List.of(), null));
      }
    }
    return any ? Optional.of(List.copyOf(children.values())) : Optional.empty();
  }

  /** The skills' files as resources, sorted by URI. */
  public List<Resource> resources() {
    return current().resources();
  }

  /**
   * {@code files} and every skill file, sorted by URI; merged once per pair of listings, not on
   * every {@code resources/list}.
   */
  @SuppressWarnings(
      "ReferenceEquality") // the same listings, not equal ones: each is replaced whole on a change
  public List<Resource> mergedWith(List<Resource> files) {
    List<Resource> skills = resources();
    if (skills.isEmpty()) {
      return files;
    }
    Merged m = merged;
    if (m == null || m.files() != files || m.skills() != skills) {
      List<Resource> all = new ArrayList<>(files.size() + skills.size());
      all.addAll(files);
      all.addAll(skills);
      all.sort(Comparator.comparing(Resource::uri));
      m = new Merged(files, skills, Collections.unmodifiableList(all));
      merged = m;
    }
    return m.all();
  }

  /** The resource files' and the skills' listings, and both merged by URI. */
  private record Merged(List<Resource> files, List<Resource> skills, List<Resource> all) {}

  private volatile @Nullable Merged merged;

  /** Whether {@code uri} is one this class answers for (served or not). */
  public static boolean owns(String uri) {
    return uri.startsWith(SCHEME);
  }

  /**
   * Whether {@code caller} may see the file at {@code uri}: it holds the scopes of the skill the
   * file belongs to.
   */
  public boolean fileVisible(Caller caller, String uri) {
    Owned owned = current().files().get(uri);
    return owned != null && caller.permits(owned.skill().scopes());
  }

  /**
   * Reads the file at {@code uri} from the source: text for a text type that is UTF-8, else base64.
   * Empty when no served skill has the file.
   *
   * @throws McpException when the file cannot be read now
   */
  public Optional<List<ResourceContents>> read(String uri) {
    Owned owned = current().files().get(uri);
    if (owned == null) {
      return Optional.empty();
    }
    Path file = owned.skill().file().resolveSibling(owned.file().path());
    byte[] bytes;
    try {
      bytes = reader.read(file, SkillReader.MAX_BYTES);
    } catch (ParseException e) {
      stale.accept(file);
      throw McpException.internal("resource '" + uri + "' could not be read");
    }
    String digest = bytes.length == owned.file().size() || bytes.length >= EncodedFiles.MIN_BYTES
        ? SkillReader.digest(bytes)
        : null;
    if (bytes.length != owned.file().size() || !owned.file().digest().equals(digest)) {
      // Changed since the skill was read: these bytes are served (they are the file now), and the
      // skill is read again, so that the entry a client refreshes next describes them.
      stale.accept(file);
    }
    String type = owned.file().mimeType();
    boolean text = isText(type);
    EncodedFiles.Encoded served = digest == null
        ? encode(bytes, text)
        : encoded.get(digest + (text ? " text" : " blob"), bytes.length, () -> encode(bytes, text));
    return Optional.of(List.of(
        served.text()
            ? new TextResourceContents(uri, type, served.value(), null)
            : new BlobResourceContents(uri, type, served.value(), null)));
  }

  /** A file's served form: its text when it is a text type and UTF-8, else its bytes in base64. */
  static EncodedFiles.Encoded encode(byte[] bytes, boolean text) {
    if (text && Utf8.valid(bytes)) {
      return new EncodedFiles.Encoded(true, new String(bytes, StandardCharsets.UTF_8));
    }
    // Not text, or not UTF-8 after all: served as bytes, so the digest still holds.
    return new EncodedFiles.Encoded(false, Base64.getEncoder().encodeToString(bytes));
  }

  /** Whether a content type is text, so that its file is served as {@code text}. */
  static boolean isText(String type) {
    return type.startsWith("text/")
        || type.equals("application/json")
        || type.equals("application/yaml")
        || type.equals("application/xml")
        || type.endsWith("+json")
        || type.endsWith("+xml");
  }

  /**
   * What a change of skills tells resource listeners: the scopes of every skill added, removed or
   * changed (before and after), and the URIs of files served before and after whose bytes differ.
   */
  public static Change change(List<SkillFolder> before, List<SkillFolder> after) {
    Set<SkillFolder> then = new HashSet<>(before);
    Set<SkillFolder> now = new HashSet<>(after);
    Set<Set<String>> scopes = new HashSet<>();
    before.stream().filter(s -> !now.contains(s)).forEach(s -> scopes.add(s.scopes()));
    after.stream().filter(s -> !then.contains(s)).forEach(s -> scopes.add(s.scopes()));
    Map<String, String> digests = new HashMap<>();
    for (SkillFolder s : before) {
      s.files().forEach(f -> digests.put(uri(s.path(), f.path()), f.digest()));
    }
    Set<String> updated = new TreeSet<>();
    for (SkillFolder s : after) {
      for (SkillFile f : s.files()) {
        String uri = uri(s.path(), f.path());
        String old = digests.get(uri);
        if (old != null && !old.equals(f.digest())) {
          updated.add(uri);
        }
      }
    }
    return new Change(scopes, updated);
  }

  /** What {@link #change} found. */
  public record Change(Set<Set<String>> scopes, Set<String> updated) {}

  /**
   * The URI of the file at {@code file} (relative to its folder) of the skill at {@code path}: each
   * segment percent-encoded as UTF-8 but for RFC 3986's unreserved and sub-delimiter characters, so
   * that a folder or file name with a space or a non-ASCII letter makes a valid URI (and a valid
   * {@code Mcp-Name} header).
   */
  public static String uri(String path, String file) {
    return root(path) + "/" + encode(file);
  }

  /** The URI of the skill's folder: its directory resource. */
  static String root(String path) {
    return SCHEME + encode(path);
  }

  /** {@code path} with every segment percent-encoded; the {@code /} between them kept. */
  static String encode(String path) {
    StringBuilder out = null;
    byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      boolean keep = (b >= 'a' && b <= 'z')
          || (b >= 'A' && b <= 'Z')
          || (b >= '0' && b <= '9')
          || "-._~!$&'()*+,;=/".indexOf(b) >= 0;
      if (!keep && out == null) {
        out = new StringBuilder(bytes.length + 16).append(path, 0, i);
      }
      if (out != null) {
        if (keep) {
          out.append((char) b);
        } else {
          out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xf]);
        }
      }
    }
    return out == null ? path : out.toString();
  }

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  @SuppressWarnings("ReferenceEquality")
  private Mapped current() {
    List<SkillFolder> skills = source.get();
    Mapped m = mapped;
    if (m.from()
        != skills) { // a new snapshot: the library replaces the list whenever skills change
      m = map(skills);
      mapped = m;
    }
    return m;
  }

  private static Mapped map(List<SkillFolder> skills) {
    List<Skill> entries = new ArrayList<>(skills.size());
    Map<String, Set<String>> scopes = new HashMap<>();
    for (SkillFolder skill : skills) {
      List<SkillResource> files = new ArrayList<>();
      for (SkillFile f : skill.files()) {
        files.add(new SkillResource(uri(skill.path(), f.path()), f.digest(), f.size()));
      }
      String prefix = skill.path() + "/";
      for (SkillFolder nested : skills) {
        if (nested.path().startsWith(prefix)) {
          for (SkillFile f : nested.files()) {
            files.add(new SkillResource(uri(nested.path(), f.path()), f.digest(), f.size()));
          }
        }
      }
      String uri = uri(skill.path(), "SKILL.md");
      entries.add(new Skill(uri, object(skill.frontMatter()), files));
      scopes.put(uri, skill.scopes());
    }
    Map<String, Owned> files = new TreeMap<>();
    List<Resource> resources = new ArrayList<>();
    for (SkillFolder skill : skills) {
      for (SkillFile f : skill.files()) {
        String uri = uri(skill.path(), f.path());
        files.put(uri, new Owned(skill, f));
      }
    }
    files.forEach((uri, owned) -> {
      boolean main = owned.file().path().equals("SKILL.md");
      resources.add(new Resource(
          uri,
          main ? owned.skill().name() : owned.file().path(),
          null,
          main ? owned.skill().description() : null,
          owned.file().mimeType(),
          owned.file().size(),
          null,
          List.of(),
          null));
    });
    // Every skill's root and every folder between it and a file under it (a nested skill's
    // included).
    Set<String> directories = new HashSet<>();
    for (SkillFolder skill : skills) {
      String root = root(skill.path());
      directories.add(root);
      for (String uri : files.keySet()) {
        if (uri.startsWith(root + "/")) {
          for (int i = uri.lastIndexOf('/'); i > root.length(); i = uri.lastIndexOf('/', i - 1)) {
            directories.add(uri.substring(0, i));
          }
        }
      }
    }
    return new Mapped(
        skills,
        List.copyOf(entries),
        Map.copyOf(scopes),
        List.copyOf(resources),
        Map.copyOf(files),
        Set.copyOf(directories));
  }

  private static JsonObject object(Map<?, ?> map) {
    JsonObject.Builder b = JsonObject.builder();
    map.forEach((k, v) -> b.put(String.valueOf(k), json(v)));
    return b.build();
  }

  /**
   * A front matter value as JSON: the parser yields strings, numbers, booleans, null, lists and
   * maps.
   */
  private static Json json(@Nullable Object value) {
    return switch (value) {
      case null -> JsonNull.INSTANCE;
      case String s -> new JsonString(s);
      case Boolean b -> b ? JsonBoolean.TRUE : JsonBoolean.FALSE;
      case Long l -> JsonNumber.of(l);
      case Integer i -> JsonNumber.of(i.longValue());
      case BigInteger i -> JsonNumber.of(new BigDecimal(i));
      case Double d when Double.isFinite(d) -> JsonNumber.of(d);
      case Map<?, ?> m -> object(m);
      case List<?> l -> new JsonArray(l.stream().map(LibrarySkills::json).toList());
      default -> new JsonString(String.valueOf(value));
    };
  }
}
