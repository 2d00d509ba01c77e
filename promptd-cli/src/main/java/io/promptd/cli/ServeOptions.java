package io.promptd.cli;

import io.promptd.mcp.stdio.StdioTransport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code promptd serve}.
 *
 * @param directories the prompt folders
 * @param pageSize prompts per {@code prompts/list} page
 * @param maxLineBytes the longest stdio message accepted
 * @param watch whether to reload files when they change
 */
record ServeOptions(List<Path> directories, int pageSize, int maxLineBytes, boolean watch) {
  ServeOptions {
    directories = List.copyOf(directories);
  }

  static ServeOptions parse(List<String> args) {
    int pageSize = 500;
    int maxLineBytes = StdioTransport.DEFAULT_MAX_LINE_BYTES;
    boolean watch = true;
    List<String> dirs = new ArrayList<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--page-size" -> pageSize = intValue(args, ++i, arg, 1);
        case "--max-line-bytes" -> maxLineBytes = intValue(args, ++i, arg, 1024);
        case "--no-watch" -> watch = false;
        case "--stdio" -> {
          // the default transport; accepted so scripts can say it explicitly
        }
        default -> {
          if (arg.startsWith("-")) {
            throw new UsageException("unknown option '" + arg + "'");
          }
          dirs.add(arg);
        }
      }
    }
    return new ServeOptions(directories(dirs), pageSize, maxLineBytes, watch);
  }

  /** The folders named on the command line; each must exist. */
  static List<Path> directories(List<String> args) {
    if (args.isEmpty()) {
      throw new UsageException("name at least one folder of prompt files");
    }
    List<Path> out = new ArrayList<>();
    for (String arg : args) {
      if (arg.startsWith("-")) {
        throw new UsageException("unknown option '" + arg + "'");
      }
      Path dir = Path.of(arg).toAbsolutePath().normalize();
      if (!Files.isDirectory(dir)) {
        throw new UsageException("not a folder: " + arg);
      }
      out.add(dir);
    }
    return out;
  }

  private static int intValue(List<String> args, int index, String option, int min) {
    if (index >= args.size()) {
      throw new UsageException(option + " needs a number");
    }
    try {
      int value = Integer.parseInt(args.get(index));
      if (value < min) {
        throw new UsageException(option + " must be at least " + min);
      }
      return value;
    } catch (NumberFormatException e) {
      throw new UsageException(option + " needs a number, not '" + args.get(index) + "'");
    }
  }
}
