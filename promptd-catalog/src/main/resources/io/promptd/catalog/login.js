// The web catalog's login: on a server that takes OAuth access tokens and names a client registered for the catalog
// (`serve --oauth-issuer URL --catalog --catalog-client-id ID`, which the page learns from its data-login-client
// attribute), "Log in" runs the authorization code flow with PKCE (S256) as a public client in this tab. The page
// finds the authorization server in the endpoint's protected-resource metadata, then the server's own metadata; sends
// the person there with this page's own URL as the redirect URI; checks the state it gets back; exchanges the code at
// the token endpoint; keeps the tokens in this tab's sessionStorage (never localStorage) and refreshes them before the
// access token expires. "Log out" forgets them and, where the provider has an end_session_endpoint, ends its session.
// Loaded after app.js, whose state.token (what the MCP and management requests send), needToken, restart, $ and t
// it uses; app.js calls resumeLogin() before it first lists, and showLogin() when the server asks for a token.
// Whatever the provider answers is shown as text; a refusal is said on the page, in the token panel.
'use strict';

const LOGIN_CLIENT = document.documentElement.dataset.loginClient || '';
const LOGIN_KEY = 'promptd.catalog.login'; // the tokens of a login, in this tab only
const PENDING_KEY = 'promptd.catalog.login-pending'; // the state and code verifier while the provider has the tab
const REFRESH_LEAD_MS = 60000; // refresh this long before expiry (a quarter of the lifetime when that is shorter)
const REFRESH_RETRY_MS = 10000; // after a refresh the network failed

const login = {
  tokens: null, // { access, refresh, id, expiresAt } while logged in
  metadata: null, // the authorization server's endpoints, once found
  timer: null, // the refresh's timeout
};

/** A login that failed, with the message the person reads. */
class LoginError extends Error {}

function base64url(bytes) {
  let binary = '';
  bytes.forEach((b) => { binary += String.fromCharCode(b); });
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomText(length) {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  return base64url(bytes);
}

async function challengeOf(verifier) {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

/** This page's URL as the provider knows it: the redirect URI and the logout's return address. */
function ownUrl() {
  return location.origin + location.pathname;
}

async function fetchJson(url, init) {
  const response = await fetch(url, Object.assign({ credentials: 'omit', cache: 'no-store', redirect: 'error',
    referrerPolicy: 'no-referrer' }, init));
  let json = null;
  try {
    json = await response.json();
  } catch (e) {
    // no JSON body: the status says it
  }
  return { response, json };
}

function isWebUrl(value) {
  return typeof value === 'string' && /^https?:\/\//i.test(value);
}

/**
 * The authorization server's endpoints: its issuer from the endpoint's protected-resource metadata (RFC 9728), its
 * metadata at the RFC 8414 address, else the OpenID Connect one.
 */
async function discover() {
  if (login.metadata) {
    return login.metadata;
  }
  let resource = null;
  for (const path of ['/.well-known/oauth-protected-resource' + ENDPOINT, '/.well-known/oauth-protected-resource']) {
    const { response, json } = await fetchJson(path, { headers: { 'Accept': 'application/json' } })
      .catch(() => ({ response: null, json: null }));
    if (response && response.ok && json && Array.isArray(json.authorization_servers)) {
      resource = json;
      break;
    }
  }
  const issuer = resource && resource.authorization_servers.find((s) => isWebUrl(s));
  if (!issuer) {
    throw new LoginError(t('login.no-server'));
  }
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  const places = [url.origin + '/.well-known/oauth-authorization-server' + path,
    issuer.replace(/\/$/, '') + '/.well-known/openid-configuration'];
  for (const place of places) {
    const { response, json } = await fetchJson(place, { headers: { 'Accept': 'application/json' } })
      .catch(() => ({ response: null, json: null }));
    if (response && response.ok && json && json.issuer === issuer && isWebUrl(json.authorization_endpoint)
      && isWebUrl(json.token_endpoint)) {
      const offered = Array.isArray(json.scopes_supported) ? json.scopes_supported : [];
      const wanted = (Array.isArray(resource.scopes_supported) ? resource.scopes_supported : [])
        .filter((s) => typeof s === 'string');
      login.metadata = {
        issuer,
        resource: typeof resource.resource === 'string' ? resource.resource : null,
        authorize: json.authorization_endpoint,
        token: json.token_endpoint,
        endSession: isWebUrl(json.end_session_endpoint) ? json.end_session_endpoint : null,
        // openid as well where the provider speaks OpenID Connect: its ID token names who logged in.
        scope: [...new Set((offered.includes('openid') ? ['openid'] : []).concat(wanted))].join(' '),
      };
      return login.metadata;
    }
  }
  throw new LoginError(t('login.no-metadata', issuer));
}

/** Sends the person to the provider's login, with a new state and code verifier kept for the way back. */
async function logIn() {
  showLoginError('');
  $('login').disabled = true;
  try {
    const m = await discover();
    const verifier = randomText(48);
    const sent = randomText(24);
    sessionStorage.setItem(PENDING_KEY, JSON.stringify({ state: sent, verifier, redirect: ownUrl(),
      hash: location.hash }));
    const url = new URL(m.authorize);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', LOGIN_CLIENT);
    url.searchParams.set('redirect_uri', ownUrl());
    url.searchParams.set('state', sent);
    url.searchParams.set('code_challenge', await challengeOf(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    if (m.scope) {
      url.searchParams.set('scope', m.scope);
    }
    if (m.resource) {
      url.searchParams.set('resource', m.resource);
    }
    location.assign(url.href);
  } catch (e) {
    showLoginError(e instanceof LoginError ? e.message : t('login.failed', e.message));
    $('login').disabled = false;
  }
}

/**
 * Before the page first lists: finishes a login the provider sent the person back from (this page's URL with code or
 * error, and state), else takes up the tokens this tab keeps. A failed login is said in the token panel.
 */
async function resumeLogin() {
  if (!LOGIN_CLIENT) {
    return;
  }
  try {
    const answer = new URLSearchParams(location.search);
    if (answer.has('code') || answer.has('error')) {
      await finishLogIn(answer);
      return;
    }
    const kept = JSON.parse(sessionStorage.getItem(LOGIN_KEY) || 'null');
    if (kept && typeof kept.access === 'string') {
      hold(kept);
      if (Date.now() >= kept.expiresAt && kept.refresh) {
        await refresh();
      }
    }
  } catch (e) {
    forgetLogin();
    showLoginError(e instanceof LoginError ? e.message : t('login.failed', e.message));
  }
}

async function finishLogIn(answer) {
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) || 'null');
  sessionStorage.removeItem(PENDING_KEY);
  // The code and state leave the address bar (and the history) whatever happens next.
  history.replaceState(null, '', ownUrl() + (pending && typeof pending.hash === 'string' ? pending.hash : ''));
  if (!pending || answer.get('state') !== pending.state) {
    throw new LoginError(t('login.state'));
  }
  if (answer.has('error')) {
    throw new LoginError(t('login.denied', answer.get('error_description') || answer.get('error')));
  }
  const m = await discover();
  if (answer.has('iss') && answer.get('iss') !== m.issuer) { // RFC 9207: the answer names who sent it
    throw new LoginError(t('login.state'));
  }
  keep(await tokenRequest({ grant_type: 'authorization_code', code: answer.get('code') || '',
    redirect_uri: pending.redirect, code_verifier: pending.verifier, client_id: LOGIN_CLIENT }), null);
}

/** A token endpoint answer, or a LoginError with the provider's reason. */
async function tokenRequest(form) {
  const m = await discover();
  let sent;
  try {
    sent = await fetchJson(m.token, { method: 'POST', body: new URLSearchParams(form),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept': 'application/json' } });
  } catch (e) {
    const error = new LoginError(t('login.exchange', e.message));
    error.network = true;
    throw error;
  }
  const { response, json } = sent;
  if (!response.ok || !json || typeof json.access_token !== 'string') {
    const why = json && typeof json.error === 'string'
      ? json.error + (typeof json.error_description === 'string' ? ': ' + json.error_description : '')
      : t('error.http', response.status);
    throw new LoginError(t('login.exchange', why));
  }
  return json;
}

/** Keeps a token endpoint answer in this tab (a refresh may leave out the refresh and ID tokens it had). */
function keep(answer, before) {
  const seconds = Number(answer.expires_in);
  hold({
    access: answer.access_token,
    refresh: typeof answer.refresh_token === 'string' ? answer.refresh_token : before && before.refresh,
    id: typeof answer.id_token === 'string' ? answer.id_token : before && before.id,
    expiresAt: Date.now() + (seconds > 0 ? seconds : 300) * 1000,
  });
  sessionStorage.removeItem(TOKEN_KEY); // a login replaces a pasted token
  sessionStorage.setItem(LOGIN_KEY, JSON.stringify(login.tokens));
}

function hold(tokens) {
  login.tokens = tokens;
  state.token = tokens.access;
  $('logout').hidden = false;
  const who = nameOf(tokens.id);
  $('who').textContent = who ? t('login.as', who) : '';
  $('who').hidden = !who;
  clearTimeout(login.timer);
  if (tokens.refresh) {
    const left = tokens.expiresAt - Date.now();
    login.timer = setTimeout(refreshAndGoOn, Math.max(0, left - Math.min(REFRESH_LEAD_MS, left / 4)));
  }
}

/** Who the ID token names, for the header only (the page trusts it for nothing else). */
function nameOf(idToken) {
  try {
    const part = idToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0))));
    const name = [claims.preferred_username, claims.email, claims.name, claims.sub].find((v) => typeof v === 'string');
    return name || null;
  } catch (e) {
    return null;
  }
}

async function refresh() {
  keep(await tokenRequest({ grant_type: 'refresh_token', refresh_token: login.tokens.refresh,
    client_id: LOGIN_CLIENT }), login.tokens);
}

/** The refresh the timer runs: a refused one ends the login (the page asks to log in again); a lost network retries. */
async function refreshAndGoOn() {
  try {
    await refresh();
  } catch (e) {
    if (e.network) {
      login.timer = setTimeout(refreshAndGoOn, REFRESH_RETRY_MS);
      return;
    }
    forgetLogin();
    showLoginError(t('login.ended', e.message));
    needToken(401, e.message);
  }
}

/** Forgets the login's tokens in this tab (nothing at the provider). */
function forgetLogin() {
  clearTimeout(login.timer);
  const had = login.tokens !== null;
  login.tokens = null;
  sessionStorage.removeItem(LOGIN_KEY);
  if (had) {
    state.token = null;
  }
  if (LOGIN_CLIENT) {
    $('logout').hidden = true;
    $('who').hidden = true;
  }
}

/** Forgets the tokens, then ends the provider's session where it can (it comes back to this page), else lists again. */
async function logOut() {
  const idToken = login.tokens && login.tokens.id;
  forgetLogin();
  const m = await discover().catch(() => null);
  if (m && m.endSession) {
    const url = new URL(m.endSession);
    url.searchParams.set('client_id', LOGIN_CLIENT);
    url.searchParams.set('post_logout_redirect_uri', ownUrl());
    if (idToken) {
      url.searchParams.set('id_token_hint', idToken);
    }
    location.assign(url.href);
    return;
  }
  restart();
}

function showLoginError(message) {
  if (LOGIN_CLIENT) {
    $('login-error').textContent = message;
    $('login-error').hidden = !message;
  }
}

/** The token panel of a page that logs people in: "Log in" first, the paste below it. */
function showLogin(status, message) {
  if (!LOGIN_CLIENT) {
    return;
  }
  $('login-section').hidden = false;
  $('token-title').textContent = t('login.or-paste');
  $('login-why').textContent = status === 403 && login.tokens ? t('login.forbidden', message)
    : login.tokens ? t('login.refused', message) : t('login.why');
}

document.addEventListener('DOMContentLoaded', () => {
  if (!LOGIN_CLIENT) {
    return;
  }
  $('login').addEventListener('click', logIn);
  $('logout').addEventListener('click', logOut);
});
