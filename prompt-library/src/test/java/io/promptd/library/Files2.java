package io.promptd.library;

import io.promptd.mcp.protocol.GetPromptResult;
import io.promptd.mcp.protocol.PromptMessage;
import io.promptd.mcp.protocol.TextContent;
import io.promptd.mcp.server.PromptDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Test helpers: write prompt files, load libraries, render prompts. */
public final class Files2 {
  private Files2() {}

  public static Path write(Path root, String relative, String content) {
    return write(root, relative, content.getBytes(StandardCharsets.UTF_8));
  }

  static Path write(Path root, String relative, byte[] content) {
    try {
      Path file = root.resolve(relative);
      Files.createDirectories(file.getParent());
      Files.write(file, content);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Library load(Path... roots) {
    try {
      return Library.open(LibrarySource.folders(List.of(roots)), LibraryOptions.defaults());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static PromptDefinition prompt(Library library, String name) {
    return library
        .catalog()
        .get(name)
        .orElseThrow(() -> new AssertionError("no prompt '" + name + "' in "
            + library.catalog().all().stream().map(PromptDefinition::name).toList()
            + "; diagnostics " + formatted(library)));
  }

  static GetPromptResult render(Library library, String name, Map<String, String> arguments) {
    try {
      return prompt(library, name).renderer().render(arguments);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static String text(PromptMessage message) {
    return ((TextContent) message.content()).text();
  }

  static List<String> formatted(Library library) {
    return library.diagnostics().stream().map(Diagnostic::format).toList();
  }

  static List<String> errors(Library library) {
    return library.diagnostics().stream()
        .filter(Diagnostic::isError)
        .map(Diagnostic::format)
        .toList();
  }
}
