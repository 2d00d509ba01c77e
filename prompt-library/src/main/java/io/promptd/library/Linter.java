package io.promptd.library;

import io.promptd.library.internal.check.ClientChecks;
import io.promptd.library.internal.skills.SkillReader;
import io.promptd.library.internal.source.FileRole;
import io.promptd.library.parse.PromptFile;
import io.promptd.library.parse.format.FileKind;
import io.promptd.library.parse.format.PromptFormats;
import io.promptd.library.parse.text.Problems;
import io.promptd.library.parse.text.Root;
import io.promptd.mcp.api.Stability;
import io.promptd.mcp.server.KnownClients;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks prompt libraries without serving them, for {@code promptd check PATH…}, prompt and
 * resource files alike: invalid front matter, template variables with no declared argument,
 * arguments never used, missing, unreadable or out-of-root attachments and partials, duplicate
 * names (errors here), and shell snippets or file references that are kept as text. Every error of
 * a file that can be found apart from the others is reported, each at its line.
 */
@Stability(Stability.Tier.STABLE)
public final class Linter {
  private Linter() {}

  /**
   * Every problem in {@code paths}, sorted by file and line. The folders are checked together, as
   * one library (so that a name two of them claim is found); each file on its own, in the folder it
   * would be served from (its own, or the format's folder it is in, such as
   * {@code .claude/commands}), reporting that file's problems only. A folder under which no prompt
   * file is found, and a file that is none, get a warning naming the files promptd reads.
   *
   * @throws IOException if a path is neither a readable folder nor a readable file
   */
  public static List<Diagnostic> check(List<Path> paths) throws IOException {
    return check(paths, false);
  }

  /**
   * As {@link #check(List)}; with {@code forClients}, also a warning for each thing a known client
   * will do with a prompt that its author should know of ({@link KnownClients}): a message it drops
   * or promptd folds for it, typed text it cuts, a name it takes for a command of its own, a prompt
   * it does not offer. Those warnings are for the folders' prompts and each named file's.
   *
   * @throws IOException if a path is neither a readable folder nor a readable file
   */
  public static List<Diagnostic> check(List<Path> paths, boolean forClients) throws IOException {
    return report(paths, forClients).diagnostics();
  }

  /**
   * What {@code promptd check} reports.
   *
   * @param diagnostics every problem, sorted by file and line ({@link #check(List, boolean)})
   * @param scopedPrompts the names of the prompts of the folders checked that require scopes,
   *     sorted (scopes apply only when promptd serves with OAuth)
   */
  public record Report(List<Diagnostic> diagnostics, List<String> scopedPrompts) {
    /** Copies the lists. */
    public Report {
      diagnostics = List.copyOf(diagnostics);
      scopedPrompts = List.copyOf(scopedPrompts);
    }
  }

  /**
   * As {@link #check(List, boolean)}, with the names of the prompts that require scopes.
   *
   * @throws IOException if a path is neither a readable folder nor a readable file
   */
  public static Report report(List<Path> paths, boolean forClients) throws IOException {
    List<Path> folders = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (Path p : paths) {
      (Files.isRegularFile(p) ? files : folders).add(p);
    }
    List<Diagnostic> out = new ArrayList<>();
    List<String> scoped = new ArrayList<>();
    if (!folders.isEmpty() || files.isEmpty()) {
      try (Library library = open(folders, forClients)) {
        out.addAll(library.lint());
        out.addAll(foldersWithoutPrompts(library));
        for (PromptDefinition p : library.catalog().all()) {
          if (!p.requiredScopes().isEmpty()) {
            scoped.add(p.name());
          }
        }
        if (forClients) {
          List<PromptFile> prompts = library.promptFiles();
          out.addAll(ClientChecks.of(prompts));
          if (!folders.isEmpty()) {
            out.addAll(ClientChecks.firstPageOnly(folders.get(0), prompts.size()));
          }
        }
      }
    }
    for (Path file : files) {
      out.addAll(checkFile(file, forClients));
    }
    out.sort(Problems.ORDER);
    scoped.sort(null);
    return new Report(out, scoped);
  }

  /**
   * A warning for each folder {@code library} reads under which no prompt file was found, naming
   * the files promptd reads ({@code *.prompt.md}, {@code .claude/commands/*.md}, …): a folder of
   * plain Markdown files would otherwise be served as no prompt at all, without a word. None for a
   * library that is not read from folders.
   */
  public static List<Diagnostic> foldersWithoutPrompts(Library library) {
    List<Diagnostic> out = new ArrayList<>();
    for (Path folder : library.foldersWithoutPromptFiles()) {
      out.add(Diagnostic.warning(
          folder,
          0,
          "no prompt file found in this folder: " + recognized() + " (a plain .md is not)"));
    }
    return out;
  }

  /** The problems of one file, linted in the folder it would be served from. */
  private static List<Diagnostic> checkFile(Path file, boolean forClients) throws IOException {
    Path absolute = file.toAbsolutePath().normalize();
    Path folder = servedFrom(absolute);
    List<Diagnostic> out = new ArrayList<>();
    // A SKILL.md stands for its skill: the problems of the skill's other files are its own.
    Path scope = SkillReader.isSkillMd(absolute) ? absolute.getParent() : null;
    try (Library library = open(List.of(folder), forClients)) {
      for (Diagnostic d : library.lint()) {
        Path at = d.file().toAbsolutePath().normalize();
        if (at.equals(absolute) || (scope != null && at.startsWith(scope))) {
          out.add(d);
        }
      }
      if (forClients) {
        for (PromptFile p : library.promptFiles()) {
          if (p.file().toAbsolutePath().normalize().equals(absolute)) {
            out.addAll(ClientChecks.of(List.of(p)));
          }
        }
      }
    }
    Root root = Root.open(folder, 0);
    if (FileRole.of(FileKind.classify(root, absolute), absolute) == null) {
      out.add(Diagnostic.warning(file, 0, "not a prompt file: " + recognized()));
    }
    return out;
  }

  /**
   * The library root a file is served from when its folder is given: for a {@code SKILL.md}, the
   * folder above its skill's; else the format folder it is in, such as {@code .claude/commands},
   * whose files are read only there; else its own folder.
   */
  private static Path servedFrom(Path file) {
    Path parent = file.getParent();
    Path holder = parent == null ? null : parent.getParent();
    if (SkillReader.isSkillMd(file) && holder != null) {
      // A skill is its folder: it is served from the folder that holds it.
      return holder;
    }
    for (Path at = parent; at != null; at = at.getParent()) {
      Path up = at.getParent();
      Path name = at.getFileName();
      Path above = up == null ? null : up.getFileName();
      if (name != null
          && above != null
          && FileKind.formatFolder(above.toString(), name.toString())) {
        return at;
      }
    }
    return parent == null ? file : parent;
  }

  /** Which files are prompt files, from the format registry. */
  private static String recognized() {
    return "prompt files are named " + String.join(", ", PromptFormats.patterns());
  }

  private static Library open(List<Path> folders, boolean forClients) throws IOException {
    // For the client checks every prompt is parsed, none restored from the on-disk index.
    LibraryOptions options = forClients
        ? LibraryOptions.builder().cacheDirectory(null).build()
        : LibraryOptions.defaults();
    return LibrarySource.folders(folders).open(options, "Linter.check");
  }
}
