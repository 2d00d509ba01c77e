package io.promptd.mcp.http.internal.jetty;

import io.promptd.mcp.http.internal.exchange.HttpIo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;

/** One Jetty request, its response and the callback that ends them, as an {@link HttpIo}. */
final class JettyIo implements HttpIo {
  private final Request request;
  private final Response response;
  private final Callback callback;
  private final RequestBody body;

  /**
   * @param deadline told while a blocking read of the body is under way, so that a body too slow is
   *     cut
   */
  JettyIo(Request request, Response response, Callback callback, HeadDeadline deadline) {
    this.request = request;
    this.response = response;
    this.callback = callback;
    this.body = new RequestBody(request, deadline);
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public String path() {
    return request.getHttpURI().getPath();
  }

  @Override
  public @Nullable String query() {
    return request.getHttpURI().getQuery();
  }

  @Override
  public @Nullable String authority() {
    String host = request.getHeaders().get(HttpHeader.HOST);
    return host != null ? host : request.getHttpURI().getAuthority();
  }

  @Override
  public @Nullable String header(String name) {
    return request.getHeaders().get(name);
  }

  @Override
  public List<String> headers(String name) {
    return request.getHeaders().getValuesList(name);
  }

  /**
   * The peer's address, or the forwarded one when a trusted proxy's (Jetty's customizer has then
   * rewritten it).
   */
  @Override
  public @Nullable String remoteAddress() {
    String address = Request.getRemoteAddr(request);
    return address == null || address.isEmpty() ? null : address;
  }

  @Override
  public long declaredLength() {
    return request.getLength();
  }

  @Override
  public byte @Nullable [] bodyIfArrived(int max) {
    return body.ifArrived(max);
  }

  @Override
  public byte @Nullable [] body(int max) throws IOException {
    return body.read(max);
  }

  @Override
  public boolean bodyStarted() {
    return body.started();
  }

  @Override
  public void status(int status) {
    response.setStatus(status);
  }

  @Override
  public void setHeader(String name, String value) {
    response.getHeaders().put(name, value);
  }

  @Override
  public boolean committed() {
    return response.isCommitted();
  }

  @Override
  public void writeLast(ByteBuffer bytes, Runnable written, Consumer<Throwable> failed) {
    response.write(true, bytes, Callback.from(written, failed));
  }

  @Override
  public OutputStream stream() {
    return Content.Sink.asOutputStream(response);
  }

  @Override
  public void succeeded() {
    callback.succeeded();
  }

  @Override
  public void failed(Throwable cause) {
    callback.failed(cause);
  }
}
