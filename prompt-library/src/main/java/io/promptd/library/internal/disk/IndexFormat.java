package io.promptd.library.internal.disk;

import io.promptd.library.Diagnostic;
import io.promptd.library.parse.ParseResult;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How one prompt file's entry is laid out in the on-disk index; {@link LibraryCache} frames and
 * checks the file.
 */
public final class IndexFormat {
  private IndexFormat() {}

  /**
   * A problem of a file, without the file.
   *
   * @param error an error, else a warning
   * @param line its line
   * @param message what is wrong
   */
  public record Problem(boolean error, int line, String message) {}

  /**
   * One prompt file as the index keeps it. Paths are kept as text and turned into {@link Path}s
   * only when used.
   *
   * @param root the index of its root
   * @param file the file
   * @param size its size when parsed
   * @param modified its modification time when parsed
   * @param name the prompt's name
   * @param prompt what {@code prompts/list} shows, as the index holds it: decoded when first asked
   *     for
   * @param nameLine the line that sets its name
   * @param completable whether it offers completions
   * @param fingerprint the hash of its bytes
   * @param problems its problems
   * @param dependencyPaths its dependencies, in the order of {@code dependencyStamps}
   * @param dependencyStamps the size and modification time of each dependency when written, -1 when
   *     it was missing
   * @param attachments the library files it attaches
   * @param scopes the scopes its front matter sets, or null when it takes its folder's default
   *     (which is not kept here: folder files are read on every load, so a changed one needs no
   *     invalidation)
   */
  public record Cached(
      int root,
      String file,
      long size,
      long modified,
      String name,
      StoredPrompt prompt,
      int nameLine,
      boolean completable,
      long fingerprint,
      List<Problem> problems,
      List<String> dependencyPaths,
      List<long[]> dependencyStamps,
      List<String> attachments,
      @Nullable Set<String> scopes) {
    /** What the entry says about {@code path}, the listed path of its file, as a parse would. */
    public ParseResult last(Path path) {
      List<Diagnostic> diagnostics = new ArrayList<>(problems.size());
      for (Problem p : problems) {
        diagnostics.add(
            p.error()
                ? Diagnostic.error(path, p.line(), p.message())
                : Diagnostic.warning(path, p.line(), p.message()));
      }
      return new ParseResult(
          path, null, diagnostics, paths(dependencyPaths), paths(attachments), fingerprint);
    }

    private static Set<Path> paths(List<String> paths) {
      if (paths.isEmpty()) {
        return Set.of();
      }
      Set<Path> out = new LinkedHashSet<>();
      paths.forEach(p -> out.add(Path.of(p)));
      return out;
    }
  }

  static void write(DataOutputStream out, Cached c) throws IOException {
    out.writeInt(c.root());
    string(out, c.file());
    out.writeLong(c.size());
    out.writeLong(c.modified());
    out.writeLong(c.fingerprint());
    out.writeInt(c.nameLine());
    out.writeBoolean(c.completable());
    string(out, c.name());
    c.prompt().writeTo(out);
    out.writeInt(c.problems().size());
    for (Problem p : c.problems()) {
      out.writeBoolean(p.error());
      out.writeInt(p.line());
      string(out, p.message());
    }
    out.writeInt(c.dependencyPaths().size());
    for (int i = 0; i < c.dependencyPaths().size(); i++) {
      string(out, c.dependencyPaths().get(i));
      out.writeLong(c.dependencyStamps().get(i)[0]);
      out.writeLong(c.dependencyStamps().get(i)[1]);
    }
    strings(out, c.attachments());
    Set<String> scopes = c.scopes();
    out.writeBoolean(scopes != null);
    if (scopes != null) {
      strings(out, List.copyOf(scopes));
    }
  }

  /**
   * Reads one entry.
   *
   * @throws IOException when the bytes do not hold one
   */
  static Cached read(ByteBuffer in) throws IOException {
    try {
      int root = in.getInt();
      String file = required(in);
      long size = in.getLong();
      long modified = in.getLong();
      long fingerprint = in.getLong();
      int nameLine = in.getInt();
      boolean completable = in.get() != 0;
      String name = required(in);
      StoredPrompt prompt = StoredPrompt.read(in, name);
      int count = count(in);
      List<Problem> problems = count == 0 ? List.of() : new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        problems.add(new Problem(in.get() != 0, in.getInt(), required(in)));
      }
      count = count(in);
      List<String> dependencies = count == 0 ? List.of() : new ArrayList<>(count);
      List<long[]> stamps = count == 0 ? List.of() : new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        dependencies.add(required(in));
        stamps.add(new long[] {in.getLong(), in.getLong()});
      }
      List<String> attachments = strings(in);
      Set<String> scopes = in.get() != 0 ? Set.copyOf(strings(in)) : null;
      return new Cached(
          root,
          file,
          size,
          modified,
          name,
          prompt,
          nameLine,
          completable,
          fingerprint,
          problems,
          dependencies,
          stamps,
          attachments,
          scopes);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw new IOException("index entry cut short or invalid: " + e, e);
    }
  }

  /** Writes what {@code p} lists but its name, which the entry holds before it. */
  static void prompt(DataOutputStream out, Prompt p) throws IOException {
    string(out, p.title());
    string(out, p.description());
    out.writeInt(p.arguments().size());
    for (PromptArgument a : p.arguments()) {
      string(out, a.name());
      string(out, a.title());
      string(out, a.description());
      out.writeBoolean(a.required());
    }
    out.writeInt(p.icons().size());
    for (Icon icon : p.icons()) {
      string(out, icon.src());
      string(out, icon.mimeType());
      strings(out, icon.sizes());
      string(out, icon.theme());
    }
    JsonObject meta = p.meta();
    string(out, meta == null ? null : JsonCodec.write(meta));
  }

  /** Reads what {@link #prompt(DataOutputStream, Prompt)} wrote, for the prompt {@code name}. */
  static Prompt prompt(ByteBuffer in, String name) throws IOException {
    String title = string(in);
    String description = string(in);
    int count = count(in);
    List<PromptArgument> arguments = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      arguments.add(new PromptArgument(required(in), string(in), string(in), in.get() != 0));
    }
    count = count(in);
    List<Icon> icons = count == 0 ? List.of() : new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      icons.add(new Icon(required(in), string(in), strings(in), string(in)));
    }
    String meta = string(in);
    return new Prompt(
        name,
        title,
        description,
        arguments,
        icons,
        meta == null ? null : (JsonObject) JsonCodec.parse(meta));
  }

  private static void strings(DataOutputStream out, List<String> list) throws IOException {
    out.writeInt(list.size());
    for (String s : list) {
      string(out, s);
    }
  }

  private static List<String> strings(ByteBuffer in) throws IOException {
    int count = count(in);
    if (count == 0) {
      return List.of();
    }
    List<String> list = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      list.add(required(in));
    }
    return list;
  }

  private static void string(DataOutputStream out, @Nullable String s) throws IOException {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static @Nullable String string(ByteBuffer in) throws IOException {
    int length = in.getInt();
    if (length < 0) {
      return null;
    }
    if (length > in.remaining()) {
      throw new IOException("index string runs past the end");
    }
    String s =
        new String(in.array(), in.arrayOffset() + in.position(), length, StandardCharsets.UTF_8);
    in.position(in.position() + length);
    return s;
  }

  private static String required(ByteBuffer in) throws IOException {
    String s = string(in);
    if (s == null) {
      throw new IOException("index: a required string is missing");
    }
    return s;
  }

  private static int count(ByteBuffer in) throws IOException {
    int count = in.getInt();
    if (count < 0 || count > in.remaining()) {
      throw new IOException("index: invalid count " + count);
    }
    return count;
  }
}
