package io.promptd.bench;

import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonNumber;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import io.promptd.testing.McpWire;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The soak's HTTP side: one POST and its checked answer, over the raw wire helpers the tests use
 * too ({@link McpWire}: request bodies of both eras, the POST, the SSE reader).
 */
final class SoakWire {
  static final String MODERN = McpWire.MODERN;
  static final String ACCEPT_BOTH = McpWire.ACCEPT_BOTH;
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

  private SoakWire() {}

  /**
   * A request failed or was answered wrongly; the message says which request and what was wrong.
   */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message);
    }
  }

  static String request(long id, String method, String params) {
    return McpWire.request(id, method, params);
  }

  /**
   * A 2026-07-28 request: {@code members} (object members, may be empty) plus the per-request
   * {@code _meta}.
   */
  static String modern(long id, String method, String members) {
    return McpWire.modern(id, method, members, "soak");
  }

  static HttpRequest.Builder post(URI uri, String body, String... headers) {
    return McpWire.post(uri, body, REQUEST_TIMEOUT, headers);
  }

  /**
   * Sends a request and returns its {@code result}, after checking the status, the framing (JSON or
   * an event stream that carries the response) and that the response's id is the request's.
   */
  static JsonObject call(
      HttpClient http, URI uri, long id, String what, String body, String... headers)
      throws Failure, InterruptedException {
    HttpResponse<String> r;
    try {
      r = http.send(post(uri, body, headers).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new Failure(what + ": " + e);
    }
    if (r.statusCode() != 200) {
      throw new Failure(what + ": HTTP " + r.statusCode() + " " + abbreviate(r.body()));
    }
    String type = r.headers().firstValue("Content-Type").orElse("");
    JsonObject response = null;
    if (type.startsWith("application/json")) {
      response = object(r.body(), what);
    } else if (type.startsWith("text/event-stream")) {
      for (String data : events(r.body())) {
        JsonObject o = object(data, what);
        if (o.has("id")) {
          response = o;
          break;
        }
      }
      if (response == null) {
        throw new Failure(
            what + ": the event stream ended without a response: " + abbreviate(r.body()));
      }
    } else {
      throw new Failure(what + ": Content-Type " + type);
    }
    if (!(response.get("id") instanceof JsonNumber n) || n.longValue() != id) {
      throw new Failure(what + ": answered with id " + response.get("id") + ", sent " + id);
    }
    JsonObject answered = response;
    return answered
        .object("result")
        .orElseThrow(
            () -> new Failure(what + ": no result: " + abbreviate(JsonCodec.write(answered))));
  }

  static JsonObject object(String text, String what) throws Failure {
    try {
      if (JsonCodec.parse(text) instanceof JsonObject o) {
        return o;
      }
    } catch (RuntimeException e) {
      throw new Failure(what + ": unreadable JSON (" + e.getMessage() + "): " + abbreviate(text));
    }
    throw new Failure(what + ": not a JSON object: " + abbreviate(text));
  }

  /** The data of each event of a complete event stream, empty data (priming events) left out. */
  static List<String> events(String stream) {
    return McpWire.Events.data(stream);
  }

  /** The first text content of a {@code prompts/get} result. */
  static String firstText(JsonObject result) {
    return result
        .array("messages")
        .filter(a -> a.size() > 0)
        .map(a -> a.get(0))
        .flatMap(m -> m instanceof JsonObject o ? o.object("content") : Optional.empty())
        .flatMap(c -> c.string("text"))
        .orElse("");
  }

  static boolean containsName(JsonObject listResult, String name) {
    for (Json p : listResult.array("prompts").orElse(JsonArray.EMPTY).elements()) {
      if (p instanceof JsonObject o && o.string("name").orElse("").equals(name)) {
        return true;
      }
    }
    return false;
  }

  static boolean containsValue(JsonObject completeResult, String value) {
    JsonArray values =
        completeResult.object("completion").flatMap(c -> c.array("values")).orElse(JsonArray.EMPTY);
    for (Json v : values.elements()) {
      if (v instanceof JsonString s && s.value().equals(value)) {
        return true;
      }
    }
    return false;
  }

  static String abbreviate(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "…";
  }
}
