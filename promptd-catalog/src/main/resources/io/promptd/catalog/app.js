// The web catalog: a 2026-07-28 MCP client of this server's endpoint, in the browser.
// Everything the server sends is untrusted library content: it is only ever put into the page as text
// (textContent, input values) or, for images, as a data: URI checked to be one. No HTML is ever parsed from it.
'use strict';

const PROTOCOL = '2026-07-28';
const ENDPOINT = document.documentElement.dataset.endpoint || '/mcp';
const TOKEN_KEY = 'promptd.catalog.token';
const LIST_LIMIT = 300; // list items drawn at once: a library of thousands is filtered, not scrolled
const CLIENT = { name: 'promptd-catalog', version: '1' };

const $ = (id) => document.getElementById(id);

// The page's own words, in the language the server chose for this visitor (the page carries them as JSON in its
// body's data-texts): t(key, ...values) puts each value in for {0}, {1}... as it is. Library content is never looked up here.
const TEXTS = JSON.parse(document.body.dataset.texts || '{}');
const LANG = document.documentElement.lang || 'en';

function t(key, ...values) {
  const pattern = Object.prototype.hasOwnProperty.call(TEXTS, key) ? TEXTS[key] : key;
  return pattern.replace(/\{(\d)\}/g, (m, n) => (n < values.length ? String(values[n]) : m));
}

/** The text {@code key}.one for one, else {@code key}.other, with the count written as this language writes it. */
function counted(key, n) {
  return t(key + (n === 1 ? '.one' : '.other'), n.toLocaleString(LANG));
}

const state = {
  token: sessionStorage.getItem(TOKEN_KEY),
  prompts: [],
  selected: null, // the selected prompt's name
  values: new Map(), // argument values typed so far, by prompt name then argument name
  nextId: 1,
  listen: null, // the AbortController of the live-updates stream
  lastRendered: '',
  shownAs: null, // the selected prompt as last drawn (JSON), to redraw only when it changed
};

/** An error the server answered with: a JSON-RPC error or an HTTP refusal. */
class ServerError extends Error {
  constructor(message, code, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// ---------------------------------------------------------------------------------------------- the MCP client

/** A header value: as is when it is plain visible ASCII, else the spec's Base64 sentinel form. */
function headerValue(value) {
  if (/^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?base64?')) {
    return value;
  }
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  bytes.forEach((b) => { binary += String.fromCharCode(b); });
  return '=?base64?' + btoa(binary) + '?=';
}

function requestInit(method, params, signal) {
  const id = state.nextId++;
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: Object.assign({}, params, {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL,
        'io.modelcontextprotocol/clientInfo': CLIENT,
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    }),
  };
  const headers = {
    'Content-Type': 'application/json',
    'Accept': 'application/json, text/event-stream',
    'MCP-Protocol-Version': PROTOCOL,
    'Mcp-Method': method,
  };
  if (method === 'prompts/get') {
    headers['Mcp-Name'] = headerValue(params.name);
  } else if (method === 'resources/read') {
    headers['Mcp-Name'] = headerValue(params.uri);
  }
  if (state.token) {
    headers['Authorization'] = 'Bearer ' + state.token;
  }
  return { id, init: { method: 'POST', headers, body: JSON.stringify(body), signal, credentials: 'omit',
    cache: 'no-store', redirect: 'error', referrerPolicy: 'no-referrer' } };
}

/** Reads a text/event-stream body, calling onMessage with each event's JSON; returns when the stream ends. */
async function readEvents(response, onMessage) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) {
      return;
    }
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) {
          let message = null;
          try {
            message = JSON.parse(data.join('\n'));
          } catch (e) {
            // not JSON: not an MCP message
          }
          data = [];
          if (message && onMessage(message) === false) {
            reader.cancel().catch(() => {});
            return;
          }
        }
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
  }
}

async function refusal(response) {
  let message = t('error.http', response.status);
  try {
    const body = await response.json();
    if (body && body.error && typeof body.error.message === 'string') {
      message = body.error.message;
    }
  } catch (e) {
    // no JSON body: the status says it
  }
  return new ServerError(message, null, response.status);
}

/** Sends one request and returns its result; throws ServerError for an error answer or refusal. */
async function call(method, params, signal) {
  const { id, init } = requestInit(method, params, signal);
  const response = await fetch(ENDPOINT, init);
  if (response.status === 401 || response.status === 403) {
    const error = await refusal(response);
    needToken(response.status, error.message);
    throw error;
  }
  if (!response.ok) {
    throw await refusal(response);
  }
  let answer = null;
  if ((response.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
    await readEvents(response, (message) => {
      if (message.id === id && ('result' in message || 'error' in message)) {
        answer = message;
        return false;
      }
      return true;
    });
  } else {
    answer = await response.json();
  }
  if (!answer) {
    throw new ServerError(t('error.no-result'), null, response.status);
  }
  if (answer.error) {
    throw new ServerError(String(answer.error.message), answer.error.code, response.status);
  }
  return answer.result;
}

async function listAll() {
  const prompts = [];
  let cursor;
  for (let page = 0; page < 1000; page++) {
    const result = await call('prompts/list', cursor ? { cursor } : {});
    const server = result._meta && result._meta['io.modelcontextprotocol/serverInfo'];
    if (server && typeof server.name === 'string') {
      $('server').textContent = server.name + (typeof server.version === 'string' ? ' ' + server.version : '');
    }
    prompts.push(...(Array.isArray(result.prompts) ? result.prompts : [])
      .filter((p) => p && typeof p.name === 'string'));
    cursor = result.nextCursor;
    if (typeof cursor !== 'string') {
      break;
    }
  }
  return prompts;
}

/**
 * Keeps a subscriptions/listen stream open, reloading the prompts on each change of prompts and the skills (skills.js)
 * on each change of resources; reconnects when it ends.
 */
async function listen() {
  let delay = 1000;
  for (;;) {
    const controller = new AbortController();
    state.listen = controller;
    let acknowledged = false;
    try {
      const { id, init } = requestInit('subscriptions/listen',
        { notifications: { promptsListChanged: true, resourcesListChanged: true } },
        controller.signal);
      const response = await fetch(ENDPOINT, init);
      if (response.status === 401 || response.status === 403) {
        const error = await refusal(response);
        needToken(response.status, error.message);
        setLive(t('live.needs-token'), 'off');
        return;
      }
      if (!response.ok) {
        throw await refusal(response);
      }
      if (!(response.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
        const body = await response.json();
        throw new ServerError(body.error ? String(body.error.message) : t('error.no-stream'), null, response.status);
      }
      await readEvents(response, (message) => {
        if (message.method === 'notifications/subscriptions/acknowledged') {
          acknowledged = true;
          delay = 1000;
          setLive(t('live.on'), 'on');
          reload(); // whatever changed before the stream was open
          reloadSkills();
        } else if (message.method === 'notifications/prompts/list_changed') {
          reload(true);
        } else if (message.method === 'notifications/resources/list_changed') {
          reloadSkills();
        } else if (message.id === id) {
          return false; // the server ended the subscription
        }
        return true;
      });
    } catch (e) {
      if (controller.signal.aborted) {
        return;
      }
    }
    setLive(acknowledged ? t('live.reconnecting') : t('live.offline'), 'off');
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 15000);
  }
}

// ---------------------------------------------------------------------------------------------- helpers

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) {
    node.className = className;
  }
  if (text !== undefined && text !== null) {
    node.textContent = String(text);
  }
  return node;
}

function str(value) {
  return typeof value === 'string' ? value : '';
}

function tagsOf(prompt) {
  const tags = prompt._meta && prompt._meta['io.promptd/tags'];
  return Array.isArray(tags) ? tags.filter((t) => typeof t === 'string') : [];
}

function rulesOf(prompt, argument) {
  const all = prompt._meta && prompt._meta['io.promptd/arguments'];
  const rules = all && typeof all === 'object' && Object.prototype.hasOwnProperty.call(all, argument)
    ? all[argument] : null;
  return rules && typeof rules === 'object' ? rules : {};
}

/** A data: URI of an image, or null: the page loads nothing from other origins, and nothing that is not an image. */
function imageUri(src) {
  return typeof src === 'string' && /^data:image\/(png|jpeg|gif|webp|svg\+xml|avif);base64,[A-Za-z0-9+/=\s]+$/i
    .test(src) ? src : null;
}

function imageData(mimeType, data) {
  return imageUri('data:' + str(mimeType) + ';base64,' + str(data));
}

function iconOf(prompt) {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  const icons = Array.isArray(prompt.icons) ? prompt.icons.filter((i) => i && imageUri(i.src)) : [];
  const fitting = icons.find((i) => i.theme === (dark ? 'dark' : 'light')) || icons.find((i) => !i.theme) || icons[0];
  return fitting ? fitting.src : null;
}

function iconNode(prompt, className) {
  const box = el('span', className);
  box.setAttribute('aria-hidden', 'true');
  const src = iconOf(prompt);
  if (src) {
    const img = el('img');
    img.alt = '';
    img.src = src;
    box.append(img);
  } else {
    box.textContent = (str(prompt.title) || str(prompt.name) || '?').trim().charAt(0).toUpperCase();
  }
  return box;
}

function setLive(text, mode) {
  const live = $('live');
  live.textContent = text;
  live.dataset.mode = mode;
}

// ---------------------------------------------------------------------------------------------- auth

function needToken(status, message) {
  const panel = $('token-panel');
  $('token-why').textContent = status === 403 ? t('token.forbidden', message)
    : state.token ? t('token.refused', message) : t('token.why');
  showLogin(status, message); // login.js: "Log in" above the paste, when the page logs people in
  if (panel.hidden) {
    panel.hidden = false;
    $('main').hidden = true;
    ($('login-section').hidden ? $('token') : $('login')).focus();
  }
}

/** Uses a pasted token (null: none) instead of any login, and starts again with it. */
function useToken(token) {
  forgetLogin();
  state.token = token;
  if (token) {
    sessionStorage.setItem(TOKEN_KEY, token);
  } else {
    sessionStorage.removeItem(TOKEN_KEY);
  }
  restart();
}

/** Lists, listens and shows everything again with the token now held (a pasted one, a login's or none). */
function restart() {
  $('forget').hidden = !sessionStorage.getItem(TOKEN_KEY);
  $('token-panel').hidden = true;
  $('main').hidden = false;
  if (state.listen) {
    state.listen.abort();
  }
  start();
}

// ---------------------------------------------------------------------------------------------- the list

/**
 * {@code run} made safe to call at any time: a call while a run is under way makes one more run after it, however many
 * calls came meanwhile, so runs never overlap and the last call is never lost. {@code run} is told whether any of the
 * calls it answers passed a true argument.
 */
function coalescing(run) {
  let running = null;
  let again = false;
  let flagged = false;
  return (flag) => {
    flagged = flagged || flag === true;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        const flag = flagged;
        flagged = false;
        await run(flag);
      } while (again);
      running = null;
    })();
    return running;
  };
}

/** Lists the prompts again; {@code changed} when the library said it changed. */
const reload = coalescing(async (changed) => {
  try {
    state.prompts = await listAll();
    showList();
    showSelected(true);
    if (changed) {
      setLive(t('live.updated', new Date().toLocaleTimeString(LANG)), 'on');
    }
  } catch (e) {
    if (!(e instanceof ServerError && (e.status === 401 || e.status === 403))) {
      showCount(t('list.failed', e.message));
    }
  }
});

const haystacks = new WeakMap(); // prompt -> its searchable text, made once per listing

function matches(prompt, words) {
  let haystack = haystacks.get(prompt);
  if (haystack === undefined) {
    haystack = [prompt.name, prompt.title, prompt.description, ...tagsOf(prompt)]
      .map((v) => str(v).toLowerCase()).join('\n');
    haystacks.set(prompt, haystack);
  }
  return words.every((w) => haystack.includes(w));
}

function showCount(text) {
  $('count').textContent = text;
}

function showList() {
  const words = $('filter').value.toLowerCase().split(/\s+/).filter(Boolean);
  const list = $('prompts');
  const shown = state.prompts.filter((p) => matches(p, words));
  const items = shown.slice(0, LIST_LIMIT).map((prompt) => {
    const item = el('li');
    const button = el('button', 'prompt-item');
    button.type = 'button';
    button.dataset.name = str(prompt.name);
    if (prompt.name === state.selected) {
      button.setAttribute('aria-current', 'true');
    }
    const text = el('span', 'prompt-text');
    text.append(el('span', 'prompt-title', str(prompt.title) || str(prompt.name)));
    text.append(el('code', 'prompt-name', prompt.name));
    if (prompt.description) {
      text.append(el('span', 'prompt-description', str(prompt.description)));
    }
    const tags = tagsOf(prompt);
    if (tags.length > 0) {
      const row = el('span', 'tags');
      tags.forEach((t) => row.append(el('span', 'tag', t)));
      text.append(row);
    }
    button.append(iconNode(prompt, 'avatar'), text);
    button.addEventListener('click', () => select(prompt.name, true));
    item.append(button);
    return item;
  });
  const focused = document.activeElement && document.activeElement.classList.contains('prompt-item')
    ? document.activeElement.dataset.name : null;
  list.replaceChildren(...items);
  if (focused !== null) { // a live update redraws the list: the keyboard user stays where they were
    const again = items.map((i) => i.firstElementChild).find((b) => b.dataset.name === focused);
    if (again) {
      again.focus();
    }
  }
  const total = state.prompts.length;
  showCount(words.length === 0 ? counted('list.count', total)
    : t('list.matching', shown.length.toLocaleString(LANG), total.toLocaleString(LANG)));
  if (total > 0 && shown.length === 0) {
    list.append(el('li', 'none', t('list.no-match', $('filter').value)));
  } else if (shown.length > LIST_LIMIT) {
    list.append(el('li', 'none', t('list.more', (shown.length - LIST_LIMIT).toLocaleString(LANG))));
  }
}

// ---------------------------------------------------------------------------------------------- the selected prompt

function select(name, focus) {
  state.selected = name;
  history.replaceState(null, '', '#' + encodeURIComponent(name));
  document.querySelectorAll('.prompt-item').forEach((b) => {
    if (b.dataset.name === name) {
      b.setAttribute('aria-current', 'true');
    } else {
      b.removeAttribute('aria-current');
    }
  });
  $('result').hidden = true;
  $('messages').replaceChildren(); // another prompt's result must not linger
  $('error').hidden = true;
  showSelected(false);
  showLifecycle(name); // lifecycle.js: versions, diff, promote and usage, with a management API
  if (focus) {
    const first = document.querySelector('#fields input, #fields textarea, #fields select');
    (first || $('render')).focus();
  }
}

function current() {
  return state.prompts.find((p) => p.name === state.selected) || null;
}

function valuesOf(name) {
  if (!state.values.has(name)) {
    state.values.set(name, new Map());
  }
  return state.values.get(name);
}

/** Shows the selected prompt; on a library change (kept) the typed values and the result stay. */
function showSelected(kept) {
  const prompt = current();
  $('empty').hidden = prompt !== null;
  $('prompt').hidden = prompt === null;
  if (!prompt) {
    if (state.selected && kept) {
      $('empty').firstElementChild.textContent = t('prompt.gone', state.selected);
    }
    return;
  }
  const shownAs = JSON.stringify(prompt);
  if (kept && shownAs === state.shownAs) {
    return; // the library changed, this prompt did not: leave the fields (and the caret) alone
  }
  state.shownAs = shownAs;
  $('prompt-title').textContent = str(prompt.title) || str(prompt.name);
  document.title = t('prompt.page-title', str(prompt.title) || str(prompt.name));
  $('prompt-name').textContent = str(prompt.name);
  $('prompt-description').textContent = str(prompt.description);
  $('prompt-icon').replaceChildren(iconNode(prompt, 'avatar large'));
  $('prompt-tags').replaceChildren(...tagsOf(prompt).map((t) => el('li', 'tag', t)));
  const args = Array.isArray(prompt.arguments) ? prompt.arguments.filter((a) => a && typeof a.name === 'string') : [];
  $('no-args').hidden = args.length > 0;
  const focused = document.activeElement && document.activeElement.dataset.argument;
  $('fields').replaceChildren(...args.map((a, i) => field(prompt, a, i)));
  if (focused) {
    const again = document.querySelector('[data-argument="' + CSS.escape(focused) + '"]');
    if (again) {
      again.focus();
    }
  }
}

function constraintsText(rules, required) {
  const parts = [required ? t('rules.required') : t('rules.optional')];
  if (typeof rules.type === 'string') {
    parts.push(rules.type);
  }
  if (Array.isArray(rules.enum)) {
    const titles = rules.enumTitles && typeof rules.enumTitles === 'object' ? rules.enumTitles : {};
    parts.push(t('rules.one-of', rules.enum.map((v) => typeof titles[v] === 'string' ? v + ' (' + titles[v] + ')' : v)
      .join(', ')));
  }
  if (typeof rules.pattern === 'string') {
    parts.push(t('rules.matches', rules.pattern));
  }
  if (typeof rules.default === 'string') {
    parts.push(t('rules.default', rules.default === '' ? t('rules.empty') : rules.default));
  }
  if (typeof rules.dependsOn === 'string') {
    parts.push(t('rules.depends', rules.dependsOn));
  }
  return parts.join(t('rules.separator'));
}

/** The values a select offers, as [value, text] pairs: an enum (with its titles) or a boolean; null for free text. */
function choicesOf(rules) {
  if (rules.type === 'boolean') {
    return [['true', 'true'], ['false', 'false']];
  }
  if (Array.isArray(rules.enum) && rules.enum.every((v) => typeof v === 'string') && typeof rules.dependsOn !== 'string') {
    const titles = rules.enumTitles && typeof rules.enumTitles === 'object' ? rules.enumTitles : {};
    return rules.enum.map((v) => [v, typeof titles[v] === 'string' ? titles[v] + ' (' + v + ')' : v]);
  }
  return null;
}

function field(prompt, argument, index) {
  const rules = rulesOf(prompt, argument.name);
  const id = 'arg-' + index;
  const wrap = el('div', 'field');
  const label = el('label', null, str(argument.title) || argument.name);
  label.htmlFor = id;
  if (argument.required) {
    label.append(el('span', 'required', ' *'));
  }
  const values = valuesOf(prompt.name);
  let input;
  const choices = choicesOf(rules);
  if (choices) {
    // A closed set of values is a choice, not free text; an unset field leaves the server's default (or asks).
    input = el('select');
    const unset = typeof rules.default === 'string' ? t('choice.default', rules.default)
      : argument.required ? t('choice.choose') : t('choice.unset');
    [['', unset], ...choices].forEach(([value, text]) => {
      const option = el('option', null, text);
      option.value = value;
      input.append(option);
    });
  } else if (typeof rules.type === 'string' || Array.isArray(rules.enum) || typeof rules.pattern === 'string'
    || typeof rules.dependsOn === 'string') {
    input = el('input');
    input.type = 'text';
  } else {
    input = el('textarea');
    input.rows = 3;
  }
  input.id = id;
  input.dataset.argument = argument.name;
  input.autocomplete = 'off';
  input.spellcheck = false;
  input.required = argument.required === true;
  if (typeof rules.default === 'string' && input.tagName !== 'SELECT') {
    input.placeholder = rules.default;
  }
  input.value = values.get(argument.name) || '';
  const help = el('p', 'help');
  help.id = id + '-help';
  if (argument.description) {
    help.append(el('span', null, str(argument.description)));
  }
  help.append(el('span', 'rules', constraintsText(rules, argument.required === true)));
  const suggestions = el('div', 'suggestions');
  suggestions.id = id + '-suggestions';
  suggestions.setAttribute('role', 'group');
  suggestions.setAttribute('aria-label', t('suggestions.label', argument.name));
  if (input.tagName === 'SELECT') {
    input.setAttribute('aria-describedby', help.id);
    input.addEventListener('change', () => values.set(argument.name, input.value));
    wrap.append(label, help, input);
    return wrap;
  }
  input.setAttribute('aria-describedby', help.id + ' ' + suggestions.id);
  input.addEventListener('input', () => {
    values.set(argument.name, input.value);
    complete(prompt.name, argument.name, input, suggestions);
  });
  input.addEventListener('focus', () => complete(prompt.name, argument.name, input, suggestions));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' && suggestions.firstElementChild) {
      event.preventDefault();
      suggestions.firstElementChild.focus();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      render();
    } else if (event.key === 'Escape') {
      suggestions.replaceChildren();
    }
  });
  wrap.append(label, help, input, suggestions);
  return wrap;
}

const completing = new Map();

/** Asks the server for completions of one argument, after a short pause in typing, and shows them as buttons. */
function complete(promptName, argumentName, input, box) {
  clearTimeout(completing.get(input));
  completing.set(input, setTimeout(async () => {
    const context = {};
    valuesOf(promptName).forEach((v, k) => {
      if (k !== argumentName && v !== '') {
        context[k] = v;
      }
    });
    const asked = input.value;
    try {
      const result = await call('completion/complete', {
        ref: { type: 'ref/prompt', name: promptName },
        argument: { name: argumentName, value: asked },
        context: { arguments: context },
      });
      if (input.value !== asked || !input.isConnected) {
        return; // typed on since: a newer request answers
      }
      const values = result && result.completion && Array.isArray(result.completion.values)
        ? result.completion.values.filter((v) => typeof v === 'string') : [];
      showSuggestions(values.filter((v) => v !== asked).slice(0, 20), input, box, promptName, argumentName);
    } catch (e) {
      box.replaceChildren(); // no suggestions: typing still works
    }
  }, 120));
}

function showSuggestions(values, input, box, promptName, argumentName) {
  const buttons = values.map((value) => {
    const button = el('button', 'suggestion', value);
    button.type = 'button';
    button.addEventListener('click', () => {
      input.value = value;
      valuesOf(promptName).set(argumentName, value);
      box.replaceChildren();
      input.focus();
    });
    button.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowRight' || event.key === 'ArrowDown') {
        event.preventDefault();
        (button.nextElementSibling || button).focus();
      } else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') {
        event.preventDefault();
        (button.previousElementSibling || input).focus();
      } else if (event.key === 'Escape') {
        box.replaceChildren();
        input.focus();
      }
    });
    return button;
  });
  box.replaceChildren(...buttons);
}

// ---------------------------------------------------------------------------------------------- rendering

async function render() {
  const prompt = current();
  if (!prompt) {
    return;
  }
  const args = {};
  valuesOf(prompt.name).forEach((v, k) => {
    if (v !== '') {
      args[k] = v;
    }
  });
  const button = $('render');
  button.disabled = true;
  button.textContent = t('render.busy');
  $('error').hidden = true;
  try {
    const result = await call('prompts/get', { name: prompt.name, arguments: args });
    if (state.selected === prompt.name) { // not if another prompt was opened meanwhile
      showResult(result);
    }
  } catch (e) {
    if (state.selected !== prompt.name) {
      return;
    }
    $('result').hidden = true;
    $('error').textContent = e.message + (e.code ? ' (' + e.code + ')' : '');
    $('error').hidden = false;
  } finally {
    button.disabled = false;
    button.textContent = t('render.button');
  }
}

function showResult(result) {
  const messages = Array.isArray(result.messages) ? result.messages : [];
  const prompt = current();
  const description = str(result.description);
  $('result-description').textContent = prompt && description === str(prompt.description) ? '' : description;
  const texts = [];
  $('messages').replaceChildren(...messages.map((message, i) => {
    const item = el('li', 'message');
    item.dataset.role = str(message.role);
    const head = el('div', 'message-head');
    head.append(el('span', 'role', str(message.role) || t('message.role')));
    const body = el('div', 'message-body');
    const content = Array.isArray(message.content) ? message.content : [message.content];
    content.filter(Boolean).forEach((c) => {
      const text = contentNode(c, body);
      if (text !== null) {
        texts.push(text);
      }
    });
    item.append(head, body);
    item.setAttribute('aria-label', t('message.label', i + 1, str(message.role)));
    return item;
  }));
  state.lastRendered = texts.join('\n\n');
  $('copied').textContent = '';
  $('result').hidden = false;
}

function mediaNote(kind, mimeType, data) {
  const size = typeof data === 'string' ? Math.floor(data.length * 3 / 4) : 0;
  return t('media.note', kind, str(mimeType) || t('media.unknown-type'), counted('size', size));
}

/** Adds one content block to {@code body}; returns its text for copying, or null when it has none. */
function contentNode(c, body) {
  switch (c.type) {
    case 'text': {
      body.append(el('pre', 'text', str(c.text)));
      return str(c.text);
    }
    case 'image': {
      const src = imageData(c.mimeType, c.data);
      const figure = el('figure', 'image');
      if (src) {
        const img = el('img');
        img.src = src;
        img.alt = t('image.alt', str(c.mimeType));
        figure.append(img);
      }
      figure.append(el('figcaption', null, mediaNote(t('media.image'), c.mimeType, c.data)));
      body.append(figure);
      return null;
    }
    case 'audio': {
      body.append(el('p', 'media', mediaNote(t('media.audio'), c.mimeType, c.data)));
      return null;
    }
    case 'resource': {
      const r = c.resource || {};
      const box = el('div', 'resource');
      const head = el('div', 'resource-head');
      head.append(el('span', 'kind', t('resource.embedded')), el('code', null, str(r.uri)));
      if (r.mimeType) {
        head.append(el('span', 'mime', str(r.mimeType)));
      }
      box.append(head);
      if (typeof r.text === 'string') {
        box.append(el('pre', 'text', r.text));
      } else if (typeof r.blob === 'string') {
        const src = imageData(r.mimeType, r.blob);
        if (src) {
          const img = el('img');
          img.src = src;
          img.alt = t('resource.image-alt', str(r.uri));
          box.append(img);
        }
        box.append(el('p', 'media', mediaNote(t('media.binary'), r.mimeType, r.blob)));
      }
      body.append(box);
      return typeof r.text === 'string' ? r.text : null;
    }
    case 'resource_link': {
      const box = el('div', 'resource link');
      const head = el('div', 'resource-head');
      head.append(el('span', 'kind', t('resource.link')), el('strong', null, str(c.title) || str(c.name)));
      if (c.mimeType) {
        head.append(el('span', 'mime', str(c.mimeType)));
      }
      box.append(head, el('code', 'uri', str(c.uri)));
      if (c.description) {
        box.append(el('p', null, str(c.description)));
      }
      body.append(box);
      return str(c.uri);
    }
    default:
      body.append(el('p', 'media', t('content.other', str(c.type))));
      return null;
  }
}

async function copy() {
  const text = state.lastRendered;
  try {
    await navigator.clipboard.writeText(text);
    $('copied').textContent = t('copy.done', text.length.toLocaleString(LANG));
  } catch (e) {
    $('copied').textContent = t('copy.refused');
  }
}

// ---------------------------------------------------------------------------------------------- start

function start() {
  reload().then(() => {
    const fromHash = decodeURIComponent(location.hash.slice(1));
    if (!state.selected && fromHash && state.prompts.some((p) => p.name === fromHash)) {
      select(fromHash, false);
    }
  });
  reloadSkills();
  listen();
}

document.addEventListener('DOMContentLoaded', () => {
  $('filter').addEventListener('input', showList);
  $('filter').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === 'ArrowDown') {
      const first = document.querySelector('.prompt-item');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    }
  });
  $('prompts').addEventListener('keydown', (event) => {
    const items = [...document.querySelectorAll('.prompt-item')];
    const at = items.indexOf(document.activeElement);
    if (at < 0) {
      return;
    }
    if (event.key === 'ArrowDown' && at + 1 < items.length) {
      event.preventDefault();
      items[at + 1].focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      (at > 0 ? items[at - 1] : $('filter')).focus();
    }
  });
  $('args').addEventListener('submit', (event) => {
    event.preventDefault();
    render();
  });
  $('copy').addEventListener('click', copy);
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    useToken($('token').value.trim());
    $('token').value = '';
  });
  $('forget').addEventListener('click', () => {
    useToken(null);
  });
  $('forget').hidden = !sessionStorage.getItem(TOKEN_KEY);
  window.addEventListener('hashchange', () => {
    const name = decodeURIComponent(location.hash.slice(1));
    if (name !== state.selected && state.prompts.some((p) => p.name === name)) {
      select(name, false);
    }
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === '/' && !['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement.tagName)) {
      event.preventDefault();
      $('filter').focus();
    }
  });
  resumeLogin().then(start); // login.js: a login coming back from the identity provider, or one kept in this tab
});
