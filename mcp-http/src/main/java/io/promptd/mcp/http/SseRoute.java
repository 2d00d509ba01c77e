package io.promptd.mcp.http;

import java.io.IOException;

/** The old HTTP+SSE transport's two paths ({@code /sse} and its message path): the MCP endpoint's checks, then it. */
final class SseRoute implements Route {
  private final Gate gate;
  private final SseTransportEndpoint sse;

  SseRoute(Gate gate, SseTransportEndpoint sse) {
    this.gate = gate;
    this.sse = sse;
  }

  /** Serves the stream path and the message path on {@code router}. */
  void mountOn(Router router) {
    router.mount(SseTransportEndpoint.STREAM_PATH, this);
    router.mount(SseTransportEndpoint.MESSAGES_PATH, this);
  }

  @Override
  public void serve(Exchange ex) throws IOException, InterruptedException {
    ex.transport(RequestEvent.Transport.HTTP_SSE); // refusals too are logged as this transport's
    if (gate.admitted(ex)) {
      sse.serve(ex);
    }
  }
}
