package io.promptd.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends each passing cell to {@code target/interop-matrix.tsv}; docs/engineering/interop.md is
 * made from it.
 */
final class Matrix {
  private static final Path FILE = Path.of("target", "interop-matrix.tsv");

  private Matrix() {}

  static synchronized void record(String cell, String transport, String era, String checks) {
    try {
      Files.createDirectories(FILE.getParent());
      Files.writeString(
          FILE,
          String.join("\t", cell, transport, era, "PASS", checks) + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
