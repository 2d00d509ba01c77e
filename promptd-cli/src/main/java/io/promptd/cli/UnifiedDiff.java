package io.promptd.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two texts by lines (longest common subsequence), with three lines of context
 * per hunk.
 */
final class UnifiedDiff {
  /**
   * The most lines-of-one times lines-of-the-other compared: a larger pair is refused rather than
   * slow.
   */
  static final long MAX_CELLS = 4_000_000;

  private static final int CONTEXT = 3;

  private UnifiedDiff() {}

  private record Op(char kind, String text, int a, int b) {}

  /**
   * The diff from {@code a} to {@code b}, headed {@code --- aName} and {@code +++ bName}; empty
   * when they are equal.
   *
   * @throws IllegalArgumentException when the texts are too long to compare (see
   *     {@link #MAX_CELLS})
   */
  static String of(String aName, String a, String bName, String b) {
    List<String> x = lines(a);
    List<String> y = lines(b);
    if ((long) x.size() * y.size() > MAX_CELLS) {
      throw new IllegalArgumentException(
          "the versions are too long to compare (" + x.size() + " and " + y.size() + " lines)");
    }
    List<Op> ops = ops(x, y);
    StringBuilder out = new StringBuilder();
    int k = 0;
    while (true) {
      int first = nextChange(ops, k);
      if (first < 0) {
        break;
      }
      int last = first;
      for (int n = nextChange(ops, last + 1);
          n >= 0 && n - last <= 2 * CONTEXT;
          n = nextChange(ops, last + 1)) {
        last = n;
      }
      int start = Math.max(k, first - CONTEXT);
      int end = Math.min(ops.size(), last + CONTEXT + 1);
      if (out.isEmpty()) {
        out.append("--- ").append(aName).append('\n');
        out.append("+++ ").append(bName).append('\n');
      }
      hunk(out, ops.subList(start, end));
      k = end;
    }
    return out.toString();
  }

  private static void hunk(StringBuilder out, List<Op> ops) {
    int aCount = 0;
    int bCount = 0;
    for (Op op : ops) {
      aCount += op.kind() == '+' ? 0 : 1;
      bCount += op.kind() == '-' ? 0 : 1;
    }
    Op first = ops.getFirst();
    out.append("@@ -")
        .append(aCount == 0 ? first.a() : first.a() + 1)
        .append(',')
        .append(aCount)
        .append(" +")
        .append(bCount == 0 ? first.b() : first.b() + 1)
        .append(',')
        .append(bCount)
        .append(" @@\n");
    for (Op op : ops) {
      out.append(op.kind()).append(op.text()).append('\n');
    }
  }

  private static int nextChange(List<Op> ops, int from) {
    for (int i = from; i < ops.size(); i++) {
      if (ops.get(i).kind() != ' ') {
        return i;
      }
    }
    return -1;
  }

  private static List<Op> ops(List<String> x, List<String> y) {
    int n = x.size();
    int m = y.size();
    int[][] common = new int[n + 1][m + 1]; // common[i][j]: the LCS of x[i..] and y[j..]
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        common[i][j] = x.get(i).equals(y.get(j))
            ? common[i + 1][j + 1] + 1
            : Math.max(common[i + 1][j], common[i][j + 1]);
      }
    }
    List<Op> ops = new ArrayList<>();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && x.get(i).equals(y.get(j))) {
        ops.add(new Op(' ', x.get(i), i++, j++));
      } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
        ops.add(new Op('-', x.get(i), i++, j)); // removals before additions, as diff -u shows them
      } else {
        ops.add(new Op('+', y.get(j), i, j++));
      }
    }
    return ops;
  }

  private static List<String> lines(String text) {
    if (text.isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>(List.of(text.split("\n", -1)));
    if (text.endsWith("\n")) {
      out.removeLast();
    }
    return out;
  }
}
