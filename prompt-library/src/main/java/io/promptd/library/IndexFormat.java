package io.promptd.library;

import io.promptd.library.parse.ParseResult;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.protocol.Icon;
import io.promptd.mcp.protocol.Prompt;
import io.promptd.mcp.protocol.PromptArgument;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** How one prompt file's entry is laid out in the on-disk index; {@link LibraryCache} frames and checks the file. */
final class IndexFormat {
  private IndexFormat() {}

  /**
   * One prompt file as the index keeps it.
   *
   * @param root the index of its root
   * @param file the file
   * @param size its size when parsed
   * @param modified its modification time when parsed
   * @param prompt what {@code prompts/list} shows
   * @param nameLine the line that sets its name
   * @param completable whether it offers completions
   * @param last its problems, dependencies, attachments and fingerprint ({@code prompt} is null)
   * @param dependencyPaths its dependencies, in the order of {@code dependencyStamps}
   * @param dependencyStamps the size and modification time of each dependency when written, -1 when it was missing
   */
  record Cached(int root, Path file, long size, long modified, Prompt prompt, int nameLine, boolean completable,
      ParseResult last, List<Path> dependencyPaths, List<long[]> dependencyStamps) {}

  static void write(DataOutputStream out, Cached c) throws IOException {
    out.writeInt(c.root());
    string(out, c.file().toString());
    out.writeLong(c.size());
    out.writeLong(c.modified());
    out.writeLong(c.last().fingerprint());
    out.writeInt(c.nameLine());
    out.writeBoolean(c.completable());
    prompt(out, c.prompt());
    out.writeInt(c.last().diagnostics().size());
    for (Diagnostic d : c.last().diagnostics()) {
      out.writeBoolean(d.isError());
      out.writeInt(d.line());
      string(out, d.message());
    }
    List<Path> dependencies = c.dependencyPaths();
    out.writeInt(dependencies.size());
    for (int i = 0; i < dependencies.size(); i++) {
      string(out, dependencies.get(i).toString());
      out.writeLong(c.dependencyStamps().get(i)[0]);
      out.writeLong(c.dependencyStamps().get(i)[1]);
    }
    out.writeInt(c.last().attachments().size());
    for (Path p : c.last().attachments()) {
      string(out, p.toString());
    }
  }

  static Cached read(DataInputStream in) throws IOException {
    int root = in.readInt();
    Path file = Path.of(required(in));
    long size = in.readLong();
    long modified = in.readLong();
    long fingerprint = in.readLong();
    int nameLine = in.readInt();
    boolean completable = in.readBoolean();
    Prompt prompt = prompt(in);
    int count = in.readInt();
    List<Diagnostic> diagnostics = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Severity severity = in.readBoolean() ? Severity.ERROR : Severity.WARNING;
      diagnostics.add(new Diagnostic(severity, file, in.readInt(), required(in)));
    }
    count = in.readInt();
    List<Path> dependencies = new ArrayList<>(count);
    List<long[]> stamps = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      dependencies.add(Path.of(required(in)));
      stamps.add(new long[] {in.readLong(), in.readLong()});
    }
    count = in.readInt();
    Set<Path> attachments = new LinkedHashSet<>();
    for (int i = 0; i < count; i++) {
      attachments.add(Path.of(required(in)));
    }
    ParseResult last = new ParseResult(file, null, diagnostics, Set.copyOf(dependencies), attachments, fingerprint);
    return new Cached(root, file, size, modified, prompt, nameLine, completable, last, dependencies, stamps);
  }

  private static void prompt(DataOutputStream out, Prompt p) throws IOException {
    string(out, p.name());
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
      out.writeInt(icon.sizes().size());
      for (String s : icon.sizes()) {
        string(out, s);
      }
      string(out, icon.theme());
    }
    JsonObject meta = p.meta();
    string(out, meta == null ? null : JsonCodec.write(meta));
  }

  private static Prompt prompt(DataInputStream in) throws IOException {
    String name = required(in);
    String title = string(in);
    String description = string(in);
    int count = in.readInt();
    List<PromptArgument> arguments = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      arguments.add(new PromptArgument(required(in), string(in), string(in), in.readBoolean()));
    }
    count = in.readInt();
    List<Icon> icons = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String src = required(in);
      String mimeType = string(in);
      int sizes = in.readInt();
      List<String> list = new ArrayList<>(sizes);
      for (int j = 0; j < sizes; j++) {
        list.add(required(in));
      }
      icons.add(new Icon(src, mimeType, list, string(in)));
    }
    String meta = string(in);
    return new Prompt(name, title, description, arguments, icons,
        meta == null ? null : (JsonObject) JsonCodec.parse(meta));
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

  private static @Nullable String string(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      return null;
    }
    return new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  private static String required(DataInputStream in) throws IOException {
    String s = string(in);
    if (s == null) {
      throw new IOException("index: a required string is missing");
    }
    return s;
  }
}
