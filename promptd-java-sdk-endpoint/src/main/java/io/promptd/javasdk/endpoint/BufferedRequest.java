package io.promptd.javasdk.endpoint;

import io.promptd.mcp.jsonrpc.ErrorCodes;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * A POST whose body was read once, up to a limit, to tell its era: the SDK transport it is handed
 * to reads the same bytes again, through {@link #getInputStream()} or {@link #getReader()}.
 */
final class BufferedRequest extends HttpServletRequestWrapper {
  private final byte[] body;

  BufferedRequest(HttpServletRequest request, byte[] body) {
    super(request);
    this.body = body;
  }

  /**
   * The request's body, at most {@code limit} bytes: a larger one (as declared, or as sent) is
   * refused with 413 before more than {@code limit + 1} bytes are held.
   */
  static byte[] read(HttpServletRequest request, int limit) throws IOException, Refusal {
    if (request.getContentLengthLong() > limit) {
      throw tooLarge(limit);
    }
    try (InputStream in = request.getInputStream()) {
      byte[] bytes = in.readNBytes(limit + 1);
      if (bytes.length > limit) {
        throw tooLarge(limit);
      }
      return bytes;
    }
  }

  private static Refusal tooLarge(int limit) {
    return new Refusal(
        HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
        ErrorCodes.INVALID_REQUEST,
        "the request body is larger than " + limit + " bytes",
        null);
  }

  @Override
  public int getContentLength() {
    return body.length;
  }

  @Override
  public long getContentLengthLong() {
    return body.length;
  }

  @Override
  public ServletInputStream getInputStream() {
    return new BodyStream(new ByteArrayInputStream(body));
  }

  @Override
  public BufferedReader getReader() {
    return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), charset()));
  }

  private Charset charset() {
    String name = getCharacterEncoding();
    if (name == null) {
      return StandardCharsets.UTF_8; // JSON's own encoding
    }
    try {
      return Charset.forName(name);
    } catch (IllegalArgumentException e) { // unknown or malformed: JSON is UTF-8
      return StandardCharsets.UTF_8;
    }
  }

  /** The buffered bytes as a servlet stream; all of them are available at once. */
  private static final class BodyStream extends ServletInputStream {
    private final ByteArrayInputStream bytes;

    BodyStream(ByteArrayInputStream bytes) {
      this.bytes = bytes;
    }

    @Override
    public int read() {
      return bytes.read();
    }

    @Override
    public int read(byte[] b, int off, int len) {
      return bytes.read(b, off, len);
    }

    @Override
    public boolean isFinished() {
      return bytes.available() == 0;
    }

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setReadListener(ReadListener listener) {
      try {
        listener.onDataAvailable();
        listener.onAllDataRead();
      } catch (IOException e) {
        listener.onError(e);
      }
    }
  }
}
