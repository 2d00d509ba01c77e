// The web catalog's lifecycle section: with a management API (`serve --store --http --manage`, which the page learns
// from its data-manage attribute), the selected prompt's versions and labels, a diff between two of its versions, a
// "promote to…" label move and its usage; and, for the whole store, "Promote FROM → TO" (a release: the dry run's
// diff first, then the promotion). Loaded after app.js, whose helpers ($, el, str, t, counted) and token (state.token, the
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
  loadRelease();
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

// ---------------------------------------------------------------------------------------------- a release

const release = {
  from: null, // the labels of the diff shown, or null
  to: null,
  loading: false,
};

/** The release section, made here (the page's markup stays app.js's): FROM, TO, the diff, the button that promotes. */
function buildRelease() {
  const section = el('section', 'lifecycle release');
  section.id = 'release';
  section.hidden = true;
  section.setAttribute('aria-labelledby', 'release-title');
  const head = el('div', 'result-head');
  const title = el('h3', null, t('release.heading'));
  title.id = 'release-title';
  head.append(title);
  const help = el('p', 'hint', t('release.help'));
  help.id = 'release-help';
  const form = el('form', 'inline-form');
  form.id = 'release-form';
  const pick = (id, key) => {
    const label = el('label', null, t(key));
    label.htmlFor = id;
    const select = el('select');
    select.id = id;
    select.setAttribute('aria-describedby', 'release-help');
    select.addEventListener('change', clearReleaseDiff);
    return [label, select];
  };
  const preview = el('button', null, t('release.preview'));
  preview.type = 'submit';
  preview.id = 'release-preview';
  form.append(...pick('release-from', 'release.from'), ...pick('release-to', 'release.to'), preview);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    previewRelease();
  });
  const status = el('p', 'hint');
  status.id = 'release-status';
  status.setAttribute('role', 'status');
  const error = el('p', 'error');
  error.id = 'release-error';
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const wrap = el('div', 'table-wrap');
  wrap.id = 'release-diff';
  wrap.hidden = true;
  wrap.tabIndex = 0;
  wrap.setAttribute('role', 'region');
  wrap.setAttribute('aria-labelledby', 'release-summary');
  const table = el('table', 'grid');
  table.setAttribute('aria-labelledby', 'release-summary');
  const header = el('tr');
  header.id = 'release-head';
  const body = el('tbody');
  body.id = 'release-body';
  const thead = el('thead');
  thead.append(header);
  table.append(thead, body);
  wrap.append(table);
  const summary = el('p', 'hint');
  summary.id = 'release-summary';
  const apply = el('button', 'primary');
  apply.type = 'button';
  apply.id = 'release-apply';
  apply.hidden = true;
  apply.addEventListener('click', applyRelease);
  const done = el('p', 'done');
  done.id = 'release-done';
  done.setAttribute('role', 'status');
  section.append(head, help, form, status, error, summary, wrap, apply, done);
  return section;
}

/** Reads the labels for FROM and TO, keeping what the visitor picked; staging → production when both exist. */
async function loadRelease() {
  if (!MANAGE || release.loading) {
    return;
  }
  release.loading = true;
  $('release').hidden = false;
  try {
    const answer = await manage('GET', '/labels');
    const entries = Array.isArray(answer.labels) ? answer.labels : [];
    const names = [...new Set(entries.map((l) => l && l.label).filter((l) => typeof l === 'string'))].sort();
    const fill = (id, wanted) => {
      const before = $(id).value;
      $(id).replaceChildren(...names.map((n) => {
        const option = el('option', null, n);
        option.value = n;
        return option;
      }));
      const keep = names.includes(before) ? before : names.includes(wanted) ? wanted : null;
      if (keep !== null) {
        $(id).value = keep;
      }
    };
    fill('release-from', 'staging');
    fill('release-to', 'production');
    if (names.length > 1 && $('release-from').value === $('release-to').value) {
      $('release-to').value = names.find((n) => n !== $('release-from').value);
    }
    $('release-status').textContent = names.length < 2 ? t('release.no-labels') : '';
    $('release-preview').disabled = names.length < 2;
  } catch (e) {
    $('release-status').textContent = t('release.labels-failed', e.message);
  } finally {
    release.loading = false;
  }
}

function clearReleaseDiff() {
  release.from = null;
  release.to = null;
  $('release-diff').hidden = true;
  $('release-body').replaceChildren();
  $('release-summary').textContent = '';
  $('release-apply').hidden = true;
  showError('release-error', '');
}

function releaseVersion(v) {
  return Number.isInteger(v) ? t('version.option', v) : t('release.no-version');
}

/** Shows the files of a promotion (the dry run's or the one made) in the diff table. */
function drawReleaseFiles(from, to, files) {
  const head = [t('release.file'), t('release.now', to), t('release.after', from), t('release.change')];
  $('release-head').replaceChildren(...head.map((h) => {
    const th = el('th', null, h);
    th.scope = 'col';
    return th;
  }));
  $('release-body').replaceChildren(...files.map((f) => {
    const row = el('tr');
    row.dataset.path = str(f.path);
    const change = f.change === 'added' ? t('release.added') : f.change === 'removed' ? t('release.removed')
      : t('release.changed');
    row.dataset.change = str(f.change);
    row.append(el('td', null, str(f.path)), el('td', 'number', releaseVersion(f.from)),
      el('td', 'number', releaseVersion(f.to)), el('td', null, change));
    return row;
  }));
  $('release-diff').hidden = files.length === 0;
}

function releaseFiles(answer) {
  return Array.isArray(answer.files) ? answer.files.filter((f) => f && typeof f.path === 'string') : [];
}

/** The dry run: what promoting FROM to TO would change, before anything moves. */
async function previewRelease() {
  const from = $('release-from').value;
  const to = $('release-to').value;
  clearReleaseDiff();
  $('release-done').textContent = '';
  if (!from || !to || from === to) {
    showError('release-error', t('release.same'));
    return;
  }
  const button = $('release-preview');
  button.disabled = true;
  try {
    const answer = await manage('POST', '/labels/promote', { from, to, dryRun: true });
    const files = releaseFiles(answer);
    drawReleaseFiles(from, to, files);
    if (files.length === 0) {
      $('release-summary').textContent = t('release.nothing', from, to);
      return;
    }
    $('release-summary').textContent = counted('release.summary', files.length);
    release.from = from;
    release.to = to;
    $('release-apply').textContent = t('release.apply', from, to);
    $('release-apply').hidden = false;
  } catch (e) {
    showError('release-error', t('release.failed', e.message));
  } finally {
    button.disabled = false;
  }
}

/** The promotion the diff shown describes; the store checks again, in its transaction. */
async function applyRelease() {
  const { from, to } = release;
  if (!from || !to) {
    return;
  }
  const button = $('release-apply');
  button.disabled = true;
  showError('release-error', '');
  try {
    const answer = await manage('POST', '/labels/promote', { from, to });
    const files = releaseFiles(answer);
    drawReleaseFiles(from, to, files);
    $('release-summary').textContent = '';
    button.hidden = true;
    release.from = null;
    release.to = null;
    $('release-done').textContent = files.length === 0 ? t('release.nothing', from, to)
      : t('release.done', from, to, counted('release.files', files.length), String(answer.promotion));
    document.dispatchEvent(new Event('promptd:promoted')); // promotions.js lists it
    if (lifecycle.name) {
      loadVersions(lifecycle.name);
    }
  } catch (e) {
    showError('release-error', t('release.failed', e.message));
  } finally {
    button.disabled = false;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  if (MANAGE) {
    $('detail').append(buildRelease());
    // The labels are read once the catalog is shown (after a token, when one is needed), and again with each prompt.
    new MutationObserver(() => {
      if (!$('main').hidden) {
        loadRelease();
      }
    }).observe($('main'), { attributes: true, attributeFilter: ['hidden'] });
    if (!$('main').hidden && state.token) {
      loadRelease();
    }
  }
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
