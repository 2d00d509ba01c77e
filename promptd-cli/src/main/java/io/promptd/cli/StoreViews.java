package io.promptd.cli;

import io.promptd.library.LibraryOptions;
import io.promptd.store.StoreDatabase;
import io.promptd.store.StoreException;
import io.promptd.store.StoreLabels;
import io.promptd.store.StoreLibrary;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * What {@code serve --store} serves: one {@link StoreLibrary} per {@code --label} (or one of every
 * file's newest version without), all on the process's one {@link StoreDatabase} (its pool and its
 * one listening connection). The first is served on {@code /mcp} (or stdio), each further one on
 * {@code /labels/NAME/mcp}.
 */
final class StoreViews implements AutoCloseable {
  /** Where each further label is served: {@code /labels/NAME/mcp}. */
  static String path(String label) {
    return "/labels/" + label + "/mcp";
  }

  /**
   * Each label valid and given once, with --store; a second one only over HTTP, where it gets a
   * path of its own.
   */
  static void checkLabels(List<String> labels, boolean store, boolean http) {
    if (labels.isEmpty()) {
      return;
    }
    if (!store) {
      throw new UsageException("--label needs --store");
    }
    for (String label : labels) {
      try {
        StoreLabels.check(label);
      } catch (StoreException e) {
        throw new UsageException(String.valueOf(e.getMessage()));
      }
    }
    if (labels.size() > 1 && !http) {
      throw new UsageException("stdio serves one label; --label " + labels.get(1)
          + " needs --http (each further label is served on /labels/" + labels.get(1) + "/mcp)");
    }
    if (new HashSet<>(labels).size() < labels.size()) {
      throw new UsageException("--label: each label once, not " + String.join(", ", labels));
    }
  }

  /** One label's view: its name (null: every file's newest version) and its library. */
  record View(@Nullable String label, StoreLibrary library) {}

  private final List<View> views;

  private StoreViews(List<View> views) {
    this.views = List.copyOf(views);
  }

  /**
   * Starts a library per label of {@code labels}, or one of the newest versions when it is empty.
   */
  static StoreViews start(StoreDatabase database, LibraryOptions options, List<String> labels)
      throws IOException {
    List<View> started = new ArrayList<>();
    try {
      if (labels.isEmpty()) {
        started.add(new View(null, StoreLibrary.start(database, options, null)));
      }
      for (String label : labels) {
        started.add(new View(label, StoreLibrary.start(database, options, label)));
      }
    } catch (IOException | RuntimeException e) {
      started.forEach(v -> v.library().close());
      throw e;
    }
    return new StoreViews(started);
  }

  /** The first: served on {@code /mcp} or stdio. */
  StoreLibrary first() {
    return views.getFirst().library();
  }

  /** The views after the first, each served on {@link #path}. */
  List<View> further() {
    return views.subList(1, views.size());
  }

  /** Whether every view was loaded at least once: the server's readiness. */
  boolean loaded() {
    return views.stream().allMatch(v -> v.library().loaded());
  }

  /**
   * Why a view's feed does not follow the store now (see {@link StoreLibrary#feedProblem}), or
   * null.
   */
  @Nullable
  String feedProblem() {
    for (View v : views) {
      String problem = v.library().feedProblem();
      if (problem != null) {
        return problem;
      }
    }
    return null;
  }

  /** Completes when every view's first load has. */
  CompletionStage<Void> firstLoad() {
    return CompletableFuture.allOf(views.stream()
        .map(v -> v.library().firstLoad().toCompletableFuture())
        .toArray(CompletableFuture[]::new));
  }

  /** Waits up to {@code timeout} for the first view's first load (stdio serves only that one). */
  boolean awaitFirst(Duration timeout) throws InterruptedException {
    return first().awaitLoaded(timeout);
  }

  @Override
  public void close() {
    views.forEach(v -> v.library().close());
  }
}
