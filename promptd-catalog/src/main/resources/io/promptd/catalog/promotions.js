// The web catalog's recorded promotions: with a management API, the store's promotions as GET /manage/v1/promotions
// lists them (newest first, on the files the visitor may see), each with a "Revert promotion N" button that calls
// POST /manage/v1/promotions/revert and puts back what it moved. Loaded after lifecycle.js, whose manage(), showError()
// and MANAGE it uses (and app.js's $, el, str, t, counted, state). Server content goes into the page as text only; a
// refusal (a protected label without its scope, a label moved since) is shown in place with the API's message.
'use strict';

const promotions = { loading: false };

/** The section, made here: a heading, a status line, the list, and where a revert's outcome is said. */
function buildPromotions() {
  const section = el('section', 'lifecycle promotions');
  section.id = 'promotions';
  section.hidden = true;
  section.setAttribute('aria-labelledby', 'promotions-title');
  const head = el('div', 'result-head');
  const title = el('h3', null, t('promotions.heading'));
  title.id = 'promotions-title';
  head.append(title);
  const help = el('p', 'hint', t('promotions.help'));
  const status = el('p', 'hint');
  status.id = 'promotions-status';
  status.setAttribute('role', 'status');
  const error = el('p', 'error');
  error.id = 'promotions-error';
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const done = el('p', 'done');
  done.id = 'promotions-done';
  done.setAttribute('role', 'status');
  const list = el('ul', 'promotion-list');
  list.id = 'promotions-list';
  section.append(head, help, status, error, done, list);
  return section;
}

/** One recorded promotion: what it moved, who, when, and its revert button. */
function promotionItem(p) {
  const item = el('li', 'promotion');
  item.dataset.promotion = String(p.promotion);
  const files = Array.isArray(p.files) ? p.files.filter((f) => f && typeof f.path === 'string') : [];
  const what = Number.isInteger(p.reverts) ? t('promotions.revert-of', p.promotion, p.reverts, str(p.to))
    : t('promotions.promotion', p.promotion, str(p.from), str(p.to));
  item.append(el('span', 'promotion-what', what),
    el('span', 'hint', t('promotions.by', counted('release.files', files.length), str(p.author), when(p.time))));
  const button = el('button', null, t('promotions.revert', p.promotion));
  button.type = 'button';
  button.dataset.revert = String(p.promotion);
  button.addEventListener('click', () => revertPromotion(p.promotion, button));
  item.append(button);
  return item;
}

/** A promotion's time as this language writes it. */
function when(time) {
  const date = new Date(str(time));
  return Number.isNaN(date.getTime()) ? str(time) : date.toLocaleString(LANG);
}

/** Reads the recorded promotions into the list. */
async function loadPromotions() {
  if (!MANAGE || promotions.loading) {
    return;
  }
  promotions.loading = true;
  $('promotions').hidden = false;
  try {
    const answer = await manage('GET', '/promotions');
    const recorded = (Array.isArray(answer.promotions) ? answer.promotions : [])
      .filter((p) => p && Number.isInteger(p.promotion));
    $('promotions-list').replaceChildren(...recorded.map(promotionItem));
    $('promotions-status').textContent = recorded.length === 0 ? t('promotions.none') : '';
  } catch (e) {
    $('promotions-status').textContent = t('promotions.failed-list', e.message);
  } finally {
    promotions.loading = false;
  }
}

/** Reverts promotion {@code n}; the store checks everything again in its transaction. */
async function revertPromotion(n, button) {
  showError('promotions-error', '');
  $('promotions-done').textContent = '';
  button.disabled = true;
  try {
    const answer = await manage('POST', '/promotions/revert', { promotion: n });
    const files = Array.isArray(answer.files) ? answer.files.length : 0;
    $('promotions-done').textContent = t('promotions.done', n, counted('release.files', files),
      String(answer.promotion));
    await loadPromotions();
    if (lifecycle.name) {
      loadVersions(lifecycle.name);
    }
  } catch (e) {
    showError('promotions-error', t('promotions.failed', n, e.message));
  } finally {
    button.disabled = false;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  if (!MANAGE) {
    return;
  }
  $('detail').append(buildPromotions());
  // Read once the catalog is shown (after a token, when one is needed), and again after a release is promoted.
  new MutationObserver(() => {
    if (!$('main').hidden) {
      loadPromotions();
    }
  }).observe($('main'), { attributes: true, attributeFilter: ['hidden'] });
  if (!$('main').hidden && state.token) {
    loadPromotions();
  }
  document.addEventListener('promptd:promoted', loadPromotions);
});
