package io.promptd.mcp.server;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The persistent balanced tree under {@link PromptCatalog}'s snapshots: its immutable nodes and the
 * operations on them. An edit copies only the path to the changed prompt and shares the rest with
 * the tree before it.
 */
final class PromptTree {
  private PromptTree() {}

  /**
   * A node of an immutable AVL tree keyed by prompt name; it caches its height and its subtree's
   * size.
   */
  static final class Node {
    final PromptDefinition value;
    final @Nullable Node left;
    final @Nullable Node right;
    final int height;
    final int size;

    Node(PromptDefinition value, @Nullable Node left, @Nullable Node right) {
      this.value = value;
      this.left = left;
      this.right = right;
      this.height = Math.max(Tree.height(left), Tree.height(right)) + 1;
      this.size = Tree.size(left) + Tree.size(right) + 1;
    }
  }

  /**
   * The persistent AVL operations: each returns a new root sharing every untouched subtree, or the
   * same root.
   */
  static final class Tree {
    private Tree() {}

    static int height(@Nullable Node n) {
      return n == null ? 0 : n.height;
    }

    static int size(@Nullable Node n) {
      return n == null ? 0 : n.size;
    }

    static @Nullable PromptDefinition get(@Nullable Node n, String name) {
      while (n != null) {
        int c = name.compareTo(n.value.name());
        if (c == 0) {
          return n.value;
        }
        n = c < 0 ? n.left : n.right;
      }
      return null;
    }

    static Node put(@Nullable Node n, PromptDefinition value) {
      if (n == null) {
        return new Node(value, null, null);
      }
      int c = value.name().compareTo(n.value.name());
      if (c < 0) {
        Node left = put(n.left, value);
        return left == n.left ? n : balance(n.value, left, n.right);
      } else if (c > 0) {
        Node right = put(n.right, value);
        return right == n.right ? n : balance(n.value, n.left, right);
      }
      return n.value.equals(value) ? n : new Node(value, n.left, n.right);
    }

    static @Nullable Node remove(@Nullable Node n, String name) {
      if (n == null) {
        return null;
      }
      int c = name.compareTo(n.value.name());
      if (c < 0) {
        Node left = remove(n.left, name);
        return left == n.left ? n : balance(n.value, left, n.right);
      } else if (c > 0) {
        Node right = remove(n.right, name);
        return right == n.right ? n : balance(n.value, n.left, right);
      }
      if (n.left == null) {
        return n.right;
      }
      if (n.right == null) {
        return n.left;
      }
      Node first = n.right;
      while (first.left != null) {
        first = first.left;
      }
      return balance(first.value, n.left, removeFirst(n.right));
    }

    private static @Nullable Node removeFirst(Node n) {
      return n.left == null ? n.right : balance(n.value, removeFirst(n.left), n.right);
    }

    /**
     * A node for {@code value} over two subtrees whose heights differ by at most two, rotated back
     * into balance.
     */
    private static Node balance(PromptDefinition value, @Nullable Node left, @Nullable Node right) {
      int hl = height(left);
      int hr = height(right);
      if (hl > hr + 1 && left != null) {
        if (height(left.left) >= height(left.right)) {
          return new Node(left.value, left.left, new Node(value, left.right, right));
        }
        Node lr = requireNonNull(left.right);
        return new Node(
            lr.value, new Node(left.value, left.left, lr.left), new Node(value, lr.right, right));
      }
      if (hr > hl + 1 && right != null) {
        if (height(right.right) >= height(right.left)) {
          return new Node(right.value, new Node(value, left, right.left), right.right);
        }
        Node rl = requireNonNull(right.left);
        return new Node(
            rl.value, new Node(value, left, rl.left), new Node(right.value, rl.right, right.right));
      }
      return new Node(value, left, right);
    }

    /** A perfectly balanced tree of {@code sorted[from, to)}. */
    static @Nullable Node build(List<PromptDefinition> sorted, int from, int to) {
      if (from >= to) {
        return null;
      }
      int mid = (from + to) >>> 1;
      return new Node(sorted.get(mid), build(sorted, from, mid), build(sorted, mid + 1, to));
    }

    /**
     * Writes the tree's prompts in order into {@code out} from {@code at}; returns the next free
     * index.
     */
    static int fill(@Nullable Node n, PromptDefinition[] out, int at) {
      if (n == null) {
        return at;
      }
      int next = fill(n.left, out, at);
      out[next] = n.value;
      return fill(n.right, out, next + 1);
    }
  }
}
