// The web catalog's lifecycle section: with a management API (`serve --store --http --manage`, which the page learns
// from its data-manage attribute), the selected prompt's versions and labels, a diff between two of its versions, a
// "promote to…" label move and its usage. Loaded after app.js, whose helpers ($, el, str, t, counted) and token (state.token, the
// one the visitor gave for the MCP endpoint) it uses; app.js calls showLifecycle(name) when a prompt is selected.
// Like app.js, it puts server content into the page as text only. A refusal (a protected label without its scope,
// an unknown name) is shown where the action was; it never takes the visitor to the token form.
'use strict';

const MANAGE = document.documentElement.dataset.manage || '';
const SERVED_LABEL = document.documentElement.dataset.label || '';
const USAGE_SINCE = '7d';

const lifecycle = {
  name: null, // the prompt shown
  versions: [], // its files' versions, as /manage/v1/versions answers them, each with its path
  protectedLabels: {},
};

/** An answer of the management API: its JSON, or an Error with the API's own message. */
async function manage(method, path, body) {
  const headers = { 'Accept': 'application/json' };
  if (state.token) {
    headers['Authorization'] = 'Bearer ' + state.token;
  }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch(MANAGE + path, { method, headers, credentials: 'omit', cache: 'no-store',
    redirect: 'error', referrerPolicy: 'no-referrer', body: body === undefined ? undefined : JSON.stringify(body) });
  let json = null;
  try {
    json = await response.json();
  } catch (e) {
    // no JSON body: the status says it
  }
  if (!response.ok) {
    // The API's errors are {"error": MESSAGE}; the resource server's refusals carry {"error": {"message"}}.
    const error = json && json.error;
    const message = typeof error === 'string' ? error
      : error && typeof error.message === 'string' ? error.message : t('error.http', response.status);
    const e = new Error(message);
    e.status = response.status;
    throw e;
  }
  return json || {};
}

function query(params) {
  return '?' + Object.entries(params).map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v)).join('&');
}

function showError(id, message) {
  $(id).textContent = message;
  $(id).hidden = !message;
}

/** Shows the lifecycle of the prompt {@code name} (or hides the section when the server has no management API). */
function showLifecycle(name) {
  $('lifecycle').hidden = !MANAGE;
  if (!MANAGE) {
    return;
  }
  lifecycle.name = name;
  lifecycle.versions = [];
  $('versions-body').replaceChildren();
  $('usage-body').replaceChildren();
  $('diff').hidden = true;
  $('diff').replaceChildren();
  showError('diff-error', '');
  showError('promote-error', '');
  $('promote-done').textContent = '';
  loadVersions(name);
  loadUsage(name);
}

async function loadVersions(name) {
  $('versions-status').textContent = t('versions.reading');
  try {
    const answer = await manage('GET', '/versions' + query({ name }));
    if (lifecycle.name !== name) {
      return; // another prompt was opened meanwhile
    }
    const files = Array.isArray(answer.files) ? answer.files.filter((f) => f && typeof f.path === 'string') : [];
    lifecycle.versions = files.flatMap((f) => (Array.isArray(f.versions) ? f.versions : [])
      .filter((v) => v && Number.isInteger(v.version)).map((v) => Object.assign({ path: f.path }, v)));
    lifecycle.protectedLabels = answer.protectedLabels && typeof answer.protectedLabels === 'object'
      ? answer.protectedLabels : {};
    drawVersions(files.length);
  } catch (e) {
    if (lifecycle.name === name) {
      $('versions-status').textContent = e.status === 404 ? t('versions.none', name) : t('versions.failed', e.message);
      fillVersionChoices([]);
    }
  }
}

function labelsOf(v) {
  return Array.isArray(v.labels) ? v.labels.filter((l) => typeof l === 'string') : [];
}

function drawVersions(fileCount) {
  const versions = lifecycle.versions;
  $('versions-status').textContent = counted('versions.count', versions.length)
    + (fileCount > 1 ? t('versions.files', fileCount) : '')
    + (SERVED_LABEL ? t('versions.served', SERVED_LABEL) : '');
  const rows = [...versions].sort((a, b) => b.version - a.version || a.path.localeCompare(b.path)).map((v) => {
    const row = el('tr');
    row.dataset.version = String(v.version);
    const labels = el('td', 'labels');
    labelsOf(v).forEach((l) => {
      const tag = el('span', l === SERVED_LABEL ? 'tag served' : 'tag', l);
      if (Object.prototype.hasOwnProperty.call(lifecycle.protectedLabels, l)) {
        tag.title = t('label.protected-title', str(lifecycle.protectedLabels[l]));
        tag.append(el('span', 'visually-hidden', t('label.protected')));
      }
      labels.append(tag, ' ');
    });
    if (v.deleted === true) {
      labels.append(el('span', 'tag deleted', t('label.deleted')));
    }
    row.append(el('td', null, v.path), el('td', 'number', v.version), el('td', null, str(v.time)),
      el('td', null, str(v.author)), labels);
    return row;
  });
  $('versions-body').replaceChildren(...rows);
  fillVersionChoices(versions);
  const known = new Set(versions.flatMap(labelsOf).concat(Object.keys(lifecycle.protectedLabels)));
  $('known-labels').replaceChildren(...[...known].sort().map((l) => {
    const option = el('option');
    option.value = l;
    return option;
  }));
  const guarded = Object.keys(lifecycle.protectedLabels).sort();
  $('promote-help').textContent = guarded.length === 0 ? t('promote.none-protected')
    : t('promote.protected', guarded.map((l) => t('promote.protected-item', l, str(lifecycle.protectedLabels[l])))
      .join(t('promote.separator')));
}

/** The version numbers in the diff and promote choices, newest first; promote offers no deletion. */
function fillVersionChoices(versions) {
  const numbers = [...new Set(versions.map((v) => v.version))].sort((a, b) => b - a);
  const live = [...new Set(versions.filter((v) => v.deleted !== true).map((v) => v.version))].sort((a, b) => b - a);
  const options = (list) => list.map((n) => {
    const option = el('option', null, t('version.option', n));
    option.value = String(n);
    return option;
  });
  $('diff-from').replaceChildren(...options(numbers));
  $('diff-to').replaceChildren(...options(numbers));
  if (numbers.length > 1) {
    $('diff-from').value = String(numbers[1]); // the one before the newest, against the newest
  }
  $('promote-version').replaceChildren(...options(live));
  $('diff-show').disabled = numbers.length === 0;
  $('promote').disabled = live.length === 0;
}

async function showDiff() {
  const name = lifecycle.name;
  const from = $('diff-from').value;
  const to = $('diff-to').value;
  showError('diff-error', '');
  try {
    const answer = await manage('GET', '/diff' + query({ name, from, to }));
    if (lifecycle.name !== name) {
      return;
    }
    const text = str(answer.diff);
    const lines = text === '' ? [el('span', 'same', t('diff.same', from, to))]
      : text.replace(/\n$/, '').split('\n').map((line) => {
        const kind = line.startsWith('+++') || line.startsWith('---') ? 'file' : line.startsWith('@@') ? 'hunk'
          : line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : 'same';
        return el('span', kind, line + '\n');
      });
    $('diff').replaceChildren(...lines);
    $('diff').hidden = false;
  } catch (e) {
    if (lifecycle.name === name) {
      $('diff').hidden = true;
      showError('diff-error', t('diff.failed', e.message));
    }
  }
}

async function promote() {
  const name = lifecycle.name;
  const version = Number($('promote-version').value);
  const label = $('promote-label').value.trim();
  showError('promote-error', '');
  $('promote-done').textContent = '';
  const button = $('promote');
  button.disabled = true;
  try {
    const answer = await manage('POST', '/labels', { name, version, label });
    const moves = Array.isArray(answer.moves) ? answer.moves : [];
    $('promote-done').textContent = moves.length === 0 ? t('promote.nothing', label, version)
      : t('promote.moves', moves.map((m) => (m.from === null ? t('promote.set', str(m.path), label, m.to)
        : t('promote.moved', str(m.path), label, m.from, m.to))).join(t('promote.joiner')));
    if (lifecycle.name === name) {
      loadVersions(name);
    }
  } catch (e) {
    showError('promote-error', t('promote.failed', e.message));
  } finally {
    button.disabled = false;
  }
}

async function loadUsage(name) {
  $('usage-status').textContent = t('usage.reading');
  try {
    const answer = await manage('GET', '/usage' + query({ name, since: USAGE_SINCE }));
    if (lifecycle.name !== name) {
      return;
    }
    const rows = Array.isArray(answer.rows) ? answer.rows.filter((r) => r && Number.isInteger(r.uses)) : [];
    const total = rows.reduce((sum, r) => sum + r.uses, 0);
    $('usage-status').textContent = total === 0 ? t('usage.none') : counted('usage.total', total);
    $('usage-body').replaceChildren(...rows.map((r) => {
      const row = el('tr');
      const numbers = Array.isArray(r.storeVersions) ? r.storeVersions.filter(Number.isInteger) : [];
      const mean = r.uses > 0 && typeof r.totalMicros === 'number' ? (r.totalMicros / r.uses / 1000).toFixed(1) : '';
      row.append(el('td', null, str(r.version)), el('td', 'number', numbers.length ? numbers.join(', ') : '-'),
        el('td', null, str(r.label)), el('td', null, str(r.client) || t('usage.no-client')), el('td', null, str(r.outcome)),
        el('td', 'number', r.uses.toLocaleString(LANG)), el('td', 'number', mean));
      return row;
    }));
  } catch (e) {
    if (lifecycle.name === name) {
      $('usage-status').textContent = t('usage.failed', e.message);
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  if (SERVED_LABEL) {
    $('served-label').textContent = t('served.label', SERVED_LABEL);
    $('served-label').hidden = false;
    document.title = t('served.title', SERVED_LABEL);
  }
  $('diff-form').addEventListener('submit', (event) => {
    event.preventDefault();
    showDiff();
  });
  $('promote-form').addEventListener('submit', (event) => {
    event.preventDefault();
    promote();
  });
  $('lifecycle-refresh').addEventListener('click', () => {
    if (lifecycle.name) {
      showLifecycle(lifecycle.name);
    }
  });
});
