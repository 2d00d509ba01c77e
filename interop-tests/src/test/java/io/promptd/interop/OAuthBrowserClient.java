package io.promptd.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.promptd.mcp.json.Json;
import io.promptd.mcp.json.JsonArray;
import io.promptd.mcp.json.JsonCodec;
import io.promptd.mcp.json.JsonObject;
import io.promptd.mcp.json.JsonString;
import java.io.IOException;
import java.net.CookieHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * An MCP client's side of the MCP authorization spec, as a browser and a native app would do it,
 * knowing only promptd's URL: the 401 challenge, promptd's Protected Resource Metadata (RFC 9728),
 * the authorization server's metadata by the spec's discovery order, dynamic client registration
 * (RFC 7591), and the authorization code flow with PKCE whose login form it fills in like a person,
 * over plain HTTP, with the redirect caught on a loopback listener.
 */
final class OAuthBrowserClient {
  private static final Pattern FORM_ACTION = Pattern.compile("<form[^>]*action=\"([^\"]+)\"");
  private static final Pattern HIDDEN =
      Pattern.compile("<input[^>]*type=\"hidden\"[^>]*name=\"([^\"]+)\"[^>]*value=\"([^\"]*)\"");

  private final URI endpoint;
  private final Callback callback;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .cookieHandler(new LoopbackCookies())
      .followRedirects(HttpClient.Redirect.NEVER)
      .build();
  private JsonObject resource;
  private JsonObject server;
  private String metadataUrl;
  private String clientId;
  private boolean consentShown;

  OAuthBrowserClient(URI endpoint, Callback callback) {
    this.endpoint = endpoint;
    this.callback = callback;
  }

  /** The resource metadata, found through the challenge of an unauthenticated request. */
  JsonObject resourceMetadata() throws Exception {
    if (resource == null) {
      HttpResponse<String> none = send(HttpRequest.newBuilder(endpoint)
          .header("Content-Type", "application/json")
          .header("Accept", "application/json, text/event-stream")
          .POST(HttpRequest.BodyPublishers.ofString(
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")));
      assertThat(none.statusCode()).isEqualTo(401);
      Matcher m = Pattern.compile("resource_metadata=\"([^\"]+)\"")
          .matcher(none.headers().firstValue("WWW-Authenticate").orElseThrow());
      assertThat(m.find()).as("the challenge names the metadata").isTrue();
      resource = json(get(URI.create(m.group(1))));
    }
    return resource;
  }

  /**
   * The authorization server's metadata: RFC 8414 with the path inserted, OpenID Connect with the
   * path inserted, then appended — the MCP spec's order; the first that answers wins.
   */
  JsonObject authorizationServerMetadata() throws Exception {
    if (server == null) {
      URI issuer = URI.create(
          string(resourceMetadata().array("authorization_servers").orElseThrow().get(0)));
      String origin = issuer.getScheme() + "://" + issuer.getRawAuthority();
      String path = issuer.getRawPath();
      for (String url : List.of(
          origin + "/.well-known/oauth-authorization-server" + path,
          origin + "/.well-known/openid-configuration" + path,
          issuer + "/.well-known/openid-configuration")) {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url)).GET());
        if (r.statusCode() == 200) {
          metadataUrl = url;
          server = json(r);
          assertThat(server.string("issuer")).hasValue(issuer.toString());
          break;
        }
      }
      assertThat(server).as("metadata of " + issuer).isNotNull();
    }
    return server;
  }

  /** Where the authorization server's metadata was found. */
  String metadataUrl() {
    return metadataUrl;
  }

  /** Registers this client (RFC 7591) as a public native app with a loopback redirect URI. */
  void register() throws Exception {
    String body = """
        {"client_name": "promptd interop test", "redirect_uris": ["%s"],
         "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
         "token_endpoint_auth_method": "none"}""".formatted(callback.redirectUri());
    HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(
            authorizationServerMetadata().string("registration_endpoint").orElseThrow()))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    clientId = json(r).string("client_id").orElseThrow();
  }

  /** Uses a client registered beforehand. */
  void use(String id) {
    clientId = id;
  }

  /** Whether the last log-in showed Keycloak's consent page (and this client accepted). */
  boolean consentShown() {
    return consentShown;
  }

  /**
   * Logs {@code user} in through the authorization server's login form and returns the access token
   * for promptd.
   */
  String logIn(String user, String password) throws Exception {
    JsonObject as = authorizationServerMetadata();
    String verifier = random();
    String challenge = Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(UTF_8)));
    String state = random();
    String scope = String.join(
        " ", strings(resourceMetadata().array("scopes_supported").orElse(JsonArray.EMPTY)));
    Map<String, String> query = new LinkedHashMap<>();
    query.put("response_type", "code");
    query.put("client_id", clientId);
    query.put("redirect_uri", callback.redirectUri().toString());
    if (!scope.isEmpty()) { // a promptd that names no scope: ask for none (the defaults come)
      query.put("scope", scope);
    }
    query.put("state", state);
    query.put("code_challenge", challenge);
    query.put("code_challenge_method", "S256");
    query.put("resource", resourceMetadata().string("resource").orElseThrow());
    // The browser follows the redirect to the loopback listener, which receives the code.
    HttpResponse<String> callbackPage = authorizeAt(
        URI.create(as.string("authorization_endpoint").orElseThrow() + "?" + form(query)),
        user,
        password,
        callback.redirectUri().toString());
    assertThat(callbackPage.statusCode()).isEqualTo(200);
    Map<String, String> answer = callback.next();
    assertThat(answer).containsEntry("state", state);

    Map<String, String> exchange = new LinkedHashMap<>();
    exchange.put("grant_type", "authorization_code");
    exchange.put("code", answer.get("code"));
    exchange.put("redirect_uri", callback.redirectUri().toString());
    exchange.put("client_id", clientId);
    exchange.put("code_verifier", verifier);
    exchange.put("resource", query.get("resource"));
    HttpResponse<String> token =
        send(HttpRequest.newBuilder(URI.create(as.string("token_endpoint").orElseThrow()))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form(exchange))));
    assertThat(token.statusCode()).as(token.body()).isEqualTo(200);
    return json(token).string("access_token").orElseThrow();
  }

  /**
   * What the browser does with an authorization URL a client opened: shows the login form, which
   * the user fills in, the consent page when there is one, which the user accepts, then follows the
   * redirect to {@code redirectPrefix} (the client's callback) and returns the callback's answer.
   */
  HttpResponse<String> authorizeAt(URI url, String user, String password, String redirectPrefix)
      throws Exception {
    HttpResponse<String> page = get(url);
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    HttpResponse<String> after =
        withinServer(submit(page, Map.of("username", user, "password", password)), redirectPrefix);
    consentShown = false;
    if (after.statusCode() == 200 && after.body().contains("name=\"accept\"")) {
      consentShown = true;
      Map<String, String> fields = new LinkedHashMap<>(hidden(after.body()));
      fields.put("accept", "Yes");
      after = withinServer(submit(after, fields), redirectPrefix);
    }
    assertThat(after.statusCode()).as(after.body()).isEqualTo(302);
    URI location = after.uri().resolve(after.headers().firstValue("Location").orElseThrow());
    assertThat(location.toString()).startsWith(redirectPrefix);
    return get(location);
  }

  /**
   * Follows the authorization server's redirects to its own pages (the consent page, for one), as
   * the browser does, up to the one that leaves it.
   */
  private HttpResponse<String> withinServer(HttpResponse<String> r, String redirectPrefix)
      throws Exception {
    for (int hops = 0; hops < 5 && r.statusCode() == 302; hops++) {
      URI next = r.uri().resolve(r.headers().firstValue("Location").orElseThrow());
      if (next.toString().startsWith(redirectPrefix)) {
        break;
      }
      r = get(next);
    }
    return r;
  }

  /** Posts the page's form with {@code fields}, as the browser does on submit. */
  private HttpResponse<String> submit(HttpResponse<String> page, Map<String, String> fields)
      throws Exception {
    Matcher m = FORM_ACTION.matcher(page.body());
    assertThat(m.find()).as("a form in " + page.body()).isTrue();
    URI action = page.uri().resolve(m.group(1).replace("&amp;", "&"));
    return send(HttpRequest.newBuilder(action)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form(fields))));
  }

  private static Map<String, String> hidden(String html) {
    Map<String, String> fields = new LinkedHashMap<>();
    Matcher m = HIDDEN.matcher(html);
    while (m.find()) {
      fields.put(m.group(1), m.group(2));
    }
    return fields;
  }

  private HttpResponse<String> get(URI uri) throws Exception {
    return send(HttpRequest.newBuilder(uri).GET());
  }

  private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
    return http.send(
        b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonObject json(HttpResponse<String> r) {
    assertThat(r.statusCode() / 100).as(r.uri() + ": " + r.body()).isEqualTo(2);
    return (JsonObject) JsonCodec.parse(r.body());
  }

  private static String string(Json j) {
    return ((JsonString) j).value();
  }

  private static List<String> strings(JsonArray a) {
    return a.elements().stream().map(OAuthBrowserClient::string).toList();
  }

  private static String form(Map<String, String> fields) {
    return fields.entrySet().stream()
        .map(e ->
            URLEncoder.encode(e.getKey(), UTF_8) + "=" + URLEncoder.encode(e.getValue(), UTF_8))
        .collect(Collectors.joining("&"));
  }

  private static String random() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /**
   * A browser's cookie jar, as far as a login on loopback needs: Keycloak marks its cookies
   * {@code Secure}, which browsers send to {@code http://127.0.0.1} (a secure context) and the
   * JDK's {@code CookieManager} sends only over HTTPS. Cookies are kept per host and port.
   */
  private static final class LoopbackCookies extends CookieHandler {
    private final Map<String, Map<String, String>> jars = new HashMap<>();

    @Override
    public synchronized Map<String, List<String>> get(URI uri, Map<String, List<String>> headers) {
      Map<String, String> jar = jars.getOrDefault(uri.getRawAuthority(), Map.of());
      if (jar.isEmpty()) {
        return Map.of();
      }
      return Map.of(
          "Cookie",
          List.of(jar.entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue())
              .collect(Collectors.joining("; "))));
    }

    @Override
    public synchronized void put(URI uri, Map<String, List<String>> headers) {
      Map<String, String> jar = jars.computeIfAbsent(uri.getRawAuthority(), k -> new HashMap<>());
      headers.forEach((name, values) -> {
        if (name != null && name.equalsIgnoreCase("Set-Cookie")) {
          for (String v : values) {
            String pair = v.split(";", 2)[0];
            int eq = pair.indexOf('=');
            String key = pair.substring(0, eq).strip();
            String lower = v.toLowerCase(Locale.ROOT);
            if (lower.contains("max-age=0") || lower.contains("expires=thu, 01 jan 1970")) {
              jar.remove(key);
            } else {
              jar.put(key, pair.substring(eq + 1).strip());
            }
          }
        }
      });
    }
  }

  /** The loopback redirect URI's listener (RFC 8252 section 7.3): hands over each query it gets. */
  static final class Callback implements AutoCloseable {
    private final HttpServer server;
    private final BlockingQueue<Map<String, String>> received = new ArrayBlockingQueue<>(8);

    private Callback(HttpServer server) {
      this.server = server;
    }

    static Callback listen() throws IOException {
      HttpServer s =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      Callback c = new Callback(s);
      s.createContext("/callback", ex -> {
        Map<String, String> q = new LinkedHashMap<>();
        String raw = ex.getRequestURI().getRawQuery();
        for (String pair : raw == null ? new String[0] : raw.split("&")) {
          int eq = pair.indexOf('=');
          q.put(
              URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), UTF_8),
              eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), UTF_8));
        }
        c.received.offer(q);
        byte[] page = "You may close this window.".getBytes(UTF_8);
        ex.sendResponseHeaders(200, page.length);
        ex.getResponseBody().write(page);
        ex.close();
      });
      s.start();
      return c;
    }

    URI redirectUri() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/callback");
    }

    /** The next query the listener received (it has, once the browser's GET returned). */
    Map<String, String> next() throws InterruptedException {
      Map<String, String> q = received.poll(10, TimeUnit.SECONDS);
      assertThat(q).as("a redirect reached " + redirectUri()).isNotNull();
      return q;
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
