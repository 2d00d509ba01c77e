package io.promptd.library.parse;

import io.promptd.library.LibraryOptions;
import io.promptd.library.parse.text.FileAccess;
import io.promptd.library.parse.text.Problems;
import java.nio.file.Path;
import java.util.Set;

/**
 * What a {@link io.promptd.library.parse.format.PromptFormat} parses with besides the file's text:
 * the limits, where problems and the files the prompt depends on or attaches are collected, and how
 * the files it names are read.
 *
 * @param options the limits
 * @param problems receives warnings and errors with their lines
 * @param dependencies receives the files whose change changes the prompt (partials, attachments,
 *     icons)
 * @param attached receives the library files the prompt attaches, which are served as resources
 * @param files reads the files the prompt names
 */
public record Parsing(
    LibraryOptions options,
    Problems problems,
    Set<Path> dependencies,
    Set<Path> attached,
    FileAccess files) {}
