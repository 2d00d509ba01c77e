/** The command line: {@code promptd serve DIR…} and {@code promptd check DIR…}. */
@NullMarked
package io.promptd.cli;

import org.jspecify.annotations.NullMarked;
