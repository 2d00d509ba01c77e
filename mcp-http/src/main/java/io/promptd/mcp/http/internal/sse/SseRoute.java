package io.promptd.mcp.http.internal.sse;

import io.promptd.mcp.http.RequestEvent;
import io.promptd.mcp.http.internal.auth.Gate;
import io.promptd.mcp.http.internal.exchange.Exchange;
import io.promptd.mcp.http.internal.exchange.Route;
import io.promptd.mcp.http.internal.exchange.Router;
import io.promptd.mcp.http.internal.exchange.StreamLimit;
import java.io.IOException;

/**
 * The old HTTP+SSE transport's two paths ({@code /sse} and its message path): the MCP endpoint's
 * checks, then it; a stream counts against its client's {@link StreamLimit}.
 */
public final class SseRoute implements Route {
  private final Gate gate;
  private final SseTransportEndpoint sse;
  private final StreamLimit streams;

  public SseRoute(Gate gate, SseTransportEndpoint sse, StreamLimit streams) {
    this.gate = gate;
    this.sse = sse;
    this.streams = streams;
  }

  /** Serves the stream path and the message path on {@code router}. */
  public void mountOn(Router router) {
    router.mount(SseTransportEndpoint.STREAM_PATH, this);
    router.mount(SseTransportEndpoint.MESSAGES_PATH, this);
  }

  @Override
  public void serve(Exchange ex) throws IOException, InterruptedException {
    ex.transport(RequestEvent.Transport.HTTP_SSE); // refusals too are logged as this transport's
    if (!gate.admitted(ex)) {
      return;
    }
    if (!ex.path().equals(SseTransportEndpoint.STREAM_PATH) || !ex.method().equals("GET")) {
      sse.serve(ex);
      return;
    }
    String client = streams.acquire(ex); // the stream is the session: it counts as a stream
    if (client != null) {
      try {
        sse.serve(ex);
      } finally {
        streams.release(client);
      }
    }
  }
}
