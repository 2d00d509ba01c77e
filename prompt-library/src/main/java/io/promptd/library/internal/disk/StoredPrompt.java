package io.promptd.library.internal.disk;

import io.promptd.mcp.protocol.Prompt;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

/**
 * What {@code prompts/list} shows of one prompt, as the on-disk index holds it: bytes, decoded into
 * a {@link Prompt} only when first asked for. A restart keeps the index's bytes (one array) instead
 * of a few times as many bytes of objects a prompt, most of which no listing page ever asks for; an
 * index written again copies the bytes as they are.
 */
public final class StoredPrompt implements Supplier<Prompt> {
  /** The bytes holding it: an index's, or its own. */
  private final byte[] data;

  private final int offset;
  private final int length;
  private final String name;

  /**
   * @param data the bytes holding it
   * @param offset where it starts in {@code data}
   * @param length how many bytes it takes
   * @param name the prompt's name, which the index holds before the bytes
   */
  private StoredPrompt(byte[] data, int offset, int length, String name) {
    this.data = data;
    this.offset = offset;
    this.length = length;
    this.name = name;
  }

  /** The prompt's name. */
  public String name() {
    return name;
  }

  /** {@code prompt} as an index holds it. */
  public static StoredPrompt of(Prompt prompt) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      IndexFormat.prompt(out, prompt);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
    return new StoredPrompt(bytes.toByteArray(), 0, bytes.size(), prompt.name());
  }

  /**
   * The prompt {@code name} at {@code in}'s position (its length, then its bytes), which it moves
   * past without decoding them; {@code in} must be backed by an array that is not changed
   * afterwards.
   *
   * @throws IOException when the length runs past the end
   */
  static StoredPrompt read(ByteBuffer in, String name) throws IOException {
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw new IOException("index: invalid prompt length " + length);
    }
    int at = in.position();
    in.position(at + length);
    return new StoredPrompt(in.array(), in.arrayOffset() + at, length, name);
  }

  /** Writes its length and its bytes as they are. */
  void writeTo(DataOutputStream out) throws IOException {
    out.writeInt(length);
    out.write(data, offset, length);
  }

  /**
   * Decodes it. The index's checksum was verified before any entry was read, so bytes that do not
   * decode are a bug in this class's format, not a damaged file.
   *
   * @throws IllegalStateException when they do not hold one prompt exactly
   */
  @Override
  public Prompt get() {
    ByteBuffer in = ByteBuffer.wrap(data, offset, length);
    try {
      Prompt prompt = IndexFormat.prompt(in, name);
      if (in.hasRemaining()) {
        throw new IOException(in.remaining() + " bytes left over");
      }
      return prompt;
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "the library index's entry for prompt '" + name + "' does not decode: " + e.getMessage(),
          e);
    }
  }
}
