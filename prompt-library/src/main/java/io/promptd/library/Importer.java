package io.promptd.library;

import static java.util.Objects.requireNonNull;

import io.promptd.library.internal.source.FolderWalker;
import io.promptd.library.parse.ParseResult;
import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.format.PromptFormats;
import io.promptd.library.parse.format.PromptParser;
import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.ParseException;
import io.promptd.library.parse.text.Root;
import io.promptd.mcp.api.Stability;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * {@code promptd import SRC DEST}: every prompt file under a folder, in any format the library
 * reads, written to another folder as a native {@code NAME.prompt.md}, with what could not be
 * carried over.
 */
@Stability(Stability.Tier.STABLE)
public final class Importer {
  private Importer() {}

  /**
   * One file's outcome.
   *
   * @param source the file read
   * @param target the file written, or null when it was not converted
   * @param notes what changed in the conversion, or why it was not converted
   */
  public record Converted(Path source, @Nullable Path target, List<String> notes) {
    /** Copies the notes. */
    public Converted {
      notes = List.copyOf(notes);
    }
  }

  /**
   * Converts the prompt files under {@code source} into {@code target} (created if needed): one
   * native file per prompt, named after the prompt. A file with errors, one that has no native
   * form, or whose target exists (unless {@code overwrite}) is not converted; resource files,
   * partials and attachments are not copied.
   *
   * @return one outcome per prompt file found, in path order
   */
  public static List<Converted> convert(
      Path source, Path target, boolean overwrite, LibraryOptions options) throws IOException {
    requireNonNull(source, "source");
    requireNonNull(target, "target");
    requireNonNull(options, "options");
    Root root = Root.open(source, 0);
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root.path())) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    Files.createDirectories(target);
    List<Converted> out = new ArrayList<>();
    for (Path file : files) {
      if (!scanned(root, file)) {
        continue;
      }
      FileKind.Match match = FileKind.classify(root, file);
      if (match == null) {
        continue;
      }
      out.add(convert(root, file, match, target, overwrite, options));
    }
    return out;
  }

  /**
   * Whether a library scan would reach {@code file}: every folder from the root down to it is one
   * it enters.
   */
  private static boolean scanned(Root root, Path file) {
    for (Path dir = file.getParent();
        dir != null && dir.startsWith(root.path());
        dir = dir.getParent()) {
      if (!FolderWalker.wanted(root, dir)) {
        return false;
      }
    }
    return true;
  }

  private static Converted convert(
      Root root,
      Path file,
      FileKind.Match match,
      Path target,
      boolean overwrite,
      LibraryOptions options)
      throws IOException {
    List<String> notes = new ArrayList<>();
    byte[] data = Files.readAllBytes(file);
    ParseResult parsed = PromptParser.parse(root, file, match, data, options, FileAccess.FOLDER);
    for (Diagnostic d : parsed.diagnostics()) {
      notes.add(d.format());
    }
    if (parsed.prompt() == null) {
      notes.add("not converted: the file has errors");
      return new Converted(file, null, notes);
    }
    String text;
    try {
      text =
          match.format().toNative(parsed.prompt(), new String(data, StandardCharsets.UTF_8), notes);
    } catch (ParseException e) {
      notes.add("not converted: " + e.getMessage());
      return new Converted(file, null, notes);
    }
    if (text == null) {
      return new Converted(file, null, notes);
    }
    Path written = target.resolve(parsed.prompt().prompt().name() + ".prompt.md");
    if (Files.exists(written) && !overwrite) {
      notes.add("not converted: " + written + " exists (--force overwrites)");
      return new Converted(file, null, notes);
    }
    if (match.format().equals(PromptFormats.NATIVE)) {
      notes.add("already native: copied");
    }
    Files.writeString(written, text, StandardCharsets.UTF_8);
    return new Converted(file, written, notes);
  }
}
