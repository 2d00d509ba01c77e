package io.promptd.store;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Which stored files a prompt name given to {@code history} or {@code rollback} means. */
final class Names {
  private static final List<String> FORMAT_FOLDERS =
      List.of(".claude/commands/", ".github/prompts/");

  private Names() {}

  /**
   * Whether {@code name} is {@code path}, the name its path gives it, or the {@code name:} of its
   * front matter.
   */
  static boolean names(String path, byte @Nullable [] data, String name) {
    if (path.equals(name)) {
      return true;
    }
    String base = path;
    boolean command = false;
    for (String folder : FORMAT_FOLDERS) {
      int at = base.indexOf(folder);
      if (at >= 0) {
        base = base.substring(at + folder.length());
        command = true;
      }
    }
    boolean prompt = base.endsWith(".prompt.md") || (command && base.endsWith(".md"));
    if (prompt) {
      base = base.substring(
          0, base.length() - (base.endsWith(".prompt.md") ? ".prompt.md" : ".md").length());
      String last = base.substring(base.lastIndexOf('/') + 1);
      if (base.equals(name)
          || last.equals(name)
          || base.replace('/', '-').equals(name)
          || base.replace('/', ':').equals(name)) {
        return true;
      }
    }
    return data != null && path.endsWith(".md") && frontMatterName(data, name);
  }

  private static boolean frontMatterName(byte[] data, String name) {
    String text = new String(data, 0, Math.min(data.length, 8_192), StandardCharsets.UTF_8);
    if (!text.startsWith("---")) {
      return false;
    }
    List<String> lines = text.lines().toList();
    for (int i = 1; i < lines.size() && !lines.get(i).startsWith("---"); i++) {
      String line = lines.get(i);
      if (line.startsWith("name:")) {
        String value = line.substring("name:".length()).strip();
        if (value.length() >= 2
            && (value.startsWith("\"") || value.startsWith("'"))
            && value.endsWith(value.substring(0, 1))) {
          value = value.substring(1, value.length() - 1);
        }
        return value.equals(name);
      }
    }
    return false;
  }
}
