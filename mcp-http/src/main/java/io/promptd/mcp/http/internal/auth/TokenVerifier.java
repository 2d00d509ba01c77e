package io.promptd.mcp.http.internal.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import io.promptd.mcp.spi.Caller;
import java.lang.System.Logger.Level;
import java.text.ParseException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Checks a JWT access token with Nimbus JOSE+JWT: signed (never {@code none}, never HMAC) with an
 * asymmetric algorithm whose key, of the matching type, is in the issuer's key set; {@code iss} is
 * the issuer, {@code aud} names the audience (RFC 8707), {@code exp} and {@code nbf} hold within a
 * minute's skew, and {@code sub} is present.
 */
public final class TokenVerifier {
  private static final System.Logger LOG = System.getLogger("io.promptd.mcp.http");
  /** Larger tokens are refused unread: no identity provider issues access tokens near this size. */
  public static final int MAX_TOKEN_CHARS = 8 * 1024;

  private static final int MAX_CLOCK_SKEW_SECONDS = 60;
  /** RFC 6750's b64token: what a bearer token may consist of. */
  private static final Pattern B64TOKEN = Pattern.compile("[A-Za-z0-9\\-._~+/]+=*");

  private static final Pattern WORDS = Pattern.compile("\\S+");
  /**
   * Asymmetric signatures only: a public key can never be mistaken for an HMAC secret (algorithm
   * confusion).
   */
  private static final Set<JWSAlgorithm> ALGORITHMS = Set.of(
      JWSAlgorithm.RS256,
      JWSAlgorithm.RS384,
      JWSAlgorithm.RS512,
      JWSAlgorithm.PS256,
      JWSAlgorithm.PS384,
      JWSAlgorithm.PS512,
      JWSAlgorithm.ES256,
      JWSAlgorithm.ES384,
      JWSAlgorithm.ES512);

  /** What a token amounts to. */
  sealed interface Verdict {
    /** A valid token: its caller. */
    record Valid(Caller caller) implements Verdict {}

    /** Not a usable token; {@code description} is safe to show (no token content). */
    record Invalid(String error, String description) implements Verdict {}
  }

  private final IssuerKeys keys;
  private final String audience;
  private final String configuredIssuer;
  private volatile @Nullable DefaultJWTProcessor<SecurityContext> processor;

  TokenVerifier(IssuerKeys keys, String issuer, String audience) {
    this.keys = keys;
    this.configuredIssuer = issuer;
    this.audience = audience;
  }

  /** Checks the value of an {@code Authorization} header that names the Bearer scheme. */
  Verdict verify(String token) {
    if (token.length() > MAX_TOKEN_CHARS) {
      return new Verdict.Invalid("invalid_token", "the access token is too large");
    }
    if (!B64TOKEN.matcher(token).matches()) {
      return new Verdict.Invalid("invalid_request", "the Authorization header is malformed");
    }
    DefaultJWTProcessor<SecurityContext> p = processor();
    if (p == null) {
      return new Verdict.Invalid(
          "invalid_token",
          "the authorization server's keys are not available yet; try again later");
    }
    try {
      SignedJWT jwt = SignedJWT.parse(token);
      JWTClaimsSet claims = p.process(jwt, null);
      // The subject owns sessions and request states: a token must name one, as a non-empty string.
      // The claims set turns a numeric sub into a string, so the type is read from the payload as
      // signed.
      if (!(jwt.getPayload().toJSONObject().get("sub") instanceof String)
          || !(claims.getClaim("sub") instanceof String subject)
          || subject.isBlank()) {
        return new Verdict.Invalid("invalid_token", "the access token names no subject");
      }
      return new Verdict.Valid(Caller.authenticated(subject, scopes(claims)));
    } catch (ParseException | BadJOSEException | JOSEException | RuntimeException e) {
      // The reason stays in the log, at debug: it may repeat what a client sent, never the token
      // itself.
      LOG.log(Level.DEBUG, "access token refused: {0}", e.getMessage());
      return new Verdict.Invalid("invalid_token", "the access token is invalid or expired");
    }
  }

  /**
   * The processor, built once the issuer's metadata has told how it spells its name; null until
   * then.
   */
  private @Nullable DefaultJWTProcessor<SecurityContext> processor() {
    DefaultJWTProcessor<SecurityContext> p = processor;
    if (p != null || !keys.ready()) {
      return p;
    }
    String issuer = keys.issuerName();
    p = new DefaultJWTProcessor<>();
    // RFC 9068 access tokens say at+jwt; most providers still say JWT or nothing.
    p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(
        JOSEObjectType.JWT,
        new JOSEObjectType("at+jwt"),
        new JOSEObjectType("application/at+jwt"),
        null));
    p.setJWSKeySelector(new JWSVerificationKeySelector<>(ALGORITHMS, keys));
    DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
        Set.of(audience),
        new JWTClaimsSet.Builder()
            .issuer(issuer != null ? issuer : configuredIssuer)
            .build(),
        Set.of("sub", "exp", "iss", "aud"),
        null);
    claims.setMaxClockSkew(MAX_CLOCK_SKEW_SECONDS);
    p.setJWTClaimsSetVerifier(claims);
    processor = p;
    return p;
  }

  /**
   * The token's scopes: {@code scope} (space-separated, RFC 9068) or {@code scp} (an array, as Okta
   * and Entra do).
   */
  static Set<String> scopes(JWTClaimsSet claims) {
    Set<String> scopes = new LinkedHashSet<>();
    Object scope = claims.getClaim("scope");
    if (scope instanceof String s) {
      addWords(s, scopes);
    } else if (scope instanceof List<?> list) {
      list.forEach(o -> scopes.add(String.valueOf(o)));
    }
    Object scp = claims.getClaim("scp");
    if (scp instanceof List<?> list) {
      list.forEach(o -> scopes.add(String.valueOf(o)));
    } else if (scp instanceof String s) {
      addWords(s, scopes);
    }
    return scopes;
  }

  private static void addWords(String text, Set<String> into) {
    WORDS.matcher(text).results().forEach(m -> into.add(m.group()));
  }
}
