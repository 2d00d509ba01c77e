// The web catalog's skills section: the skills the visitor may see (skills/list of the Skills extension, all pages),
// each with its name, description and files; a file is read with resources/read when opened. Loaded after app.js,
// whose client (call, coalescing), helpers (el, str, $, imageData, t, counted) and live stream it uses: app.js calls
// reloadSkills() at start and on each notifications/resources/list_changed. Like app.js, it puts server content into
// the page as text only.
'use strict';

const skillsState = {
  skills: [],
  shownAs: null, // the listing as last drawn (JSON), to redraw only when it changed
  open: null, // the URI of the file shown, if any
};

/** The skill path of an entry: its SKILL.md URI without the scheme and the file name. */
function skillPath(entry) {
  return str(entry.uri).replace(/^skill:\/\//, '').replace(/\/SKILL\.md$/, '');
}

/** A path of a skill URI as people write it: each segment percent-decoded (a malformed one kept as it is). */
function readable(path) {
  return path.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch (e) {
      return segment;
    }
  }).join('/');
}

async function listSkills() {
  const skills = [];
  let cursor;
  for (let page = 0; page < 1000; page++) {
    const result = await call('skills/list', cursor ? { cursor } : {});
    skills.push(...(Array.isArray(result.skills) ? result.skills : [])
      .filter((s) => s && typeof s.uri === 'string' && Array.isArray(s.resources)));
    cursor = result.nextCursor;
    if (typeof cursor !== 'string') {
      break;
    }
  }
  return skills;
}

/** Lists the skills again (one listing at a time: app.js's coalescing). */
const reloadSkills = coalescing(async () => {
  try {
    skillsState.skills = await listSkills();
    showSkills();
  } catch (e) {
    if (e instanceof ServerError && e.code === -32601) {
      skillsState.skills = []; // the server has no Skills extension: no section
      showSkills();
    } else if (!(e instanceof ServerError && (e.status === 401 || e.status === 403))) {
      $('skills').hidden = false;
      $('skills-count').textContent = t('skills.failed', e.message);
    }
  }
});

function sizeText(size) {
  return typeof size === 'number' ? counted('size', size) : '';
}

function showSkills() {
  const skills = skillsState.skills;
  $('skills').hidden = skills.length === 0;
  const shownAs = JSON.stringify(skills);
  if (shownAs === skillsState.shownAs) {
    return; // nothing changed: leave an open file (and the focus) alone
  }
  skillsState.shownAs = shownAs;
  $('skills-count').textContent = counted('skills.count', skills.length);
  const focused = document.activeElement && document.activeElement.classList.contains('skill-file')
    ? document.activeElement.dataset.uri : null;
  $('skill-list').replaceChildren(...skills.map(skillNode));
  const open = skillsState.open;
  skillsState.open = null;
  document.querySelectorAll('.skill-file').forEach((button) => {
    if (button.dataset.uri === open) {
      toggleFile(button); // still served: shown again, read anew
    }
    if (button.dataset.uri === focused) {
      button.focus();
    }
  });
}

function skillNode(entry) {
  const front = entry.frontmatter && typeof entry.frontmatter === 'object' ? entry.frontmatter : {};
  const path = skillPath(entry);
  const item = el('li', 'skill');
  item.dataset.uri = entry.uri;
  const head = el('div', 'skill-head');
  head.append(el('h3', 'skill-name', str(front.name) || readable(path)),
    el('code', 'skill-path', readable(path)));
  item.append(head);
  if (front.description) {
    item.append(el('p', 'skill-description', str(front.description)));
  }
  const files = el('ul', 'skill-files');
  files.setAttribute('aria-label', t('skills.files', str(front.name) || readable(path)));
  const prefix = 'skill://' + path + '/';
  entry.resources.filter((r) => r && typeof r.uri === 'string').forEach((r) => {
    const file = el('li');
    const button = el('button', 'skill-file');
    button.type = 'button';
    button.dataset.uri = r.uri;
    button.setAttribute('aria-expanded', 'false');
    button.append(el('span', 'file-path', readable(r.uri.startsWith(prefix) ? r.uri.slice(prefix.length) : r.uri)),
      el('span', 'file-size', sizeText(r.size)));
    const view = el('div', 'skill-view');
    view.hidden = true;
    button.addEventListener('click', () => toggleFile(button));
    file.append(button, view);
    files.append(file);
  });
  item.append(files);
  return item;
}

/** Shows a file under its button, read now with resources/read, or hides it when shown. */
async function toggleFile(button) {
  const view = button.nextElementSibling;
  if (button.getAttribute('aria-expanded') === 'true') {
    button.setAttribute('aria-expanded', 'false');
    view.hidden = true;
    view.replaceChildren();
    skillsState.open = null;
    return;
  }
  document.querySelectorAll('.skill-file[aria-expanded="true"]').forEach((b) => toggleFile(b));
  const uri = button.dataset.uri;
  skillsState.open = uri;
  button.setAttribute('aria-expanded', 'true');
  view.hidden = false;
  view.replaceChildren(el('p', 'media', t('skills.reading')));
  try {
    const result = await call('resources/read', { uri });
    if (skillsState.open !== uri || !view.isConnected) {
      return; // closed, or another file opened, meanwhile
    }
    const c = (Array.isArray(result.contents) ? result.contents : []).find((x) => x && x.uri === uri) || {};
    if (typeof c.text === 'string') {
      view.replaceChildren(el('pre', 'text', c.text));
    } else {
      const nodes = [];
      const src = imageData(c.mimeType, c.blob);
      if (src) {
        const img = el('img');
        img.src = src;
        img.alt = t('skills.image-alt', uri);
        nodes.push(img);
      }
      let size = null;
      try {
        size = atob(str(c.blob)).length;
      } catch (e) {
        // not base64: no size to tell
      }
      nodes.push(el('p', 'media', t('media.note', t('media.binary'), str(c.mimeType) || t('media.unknown-type'),
        sizeText(size))));
      view.replaceChildren(...nodes);
    }
  } catch (e) {
    if (skillsState.open === uri) {
      view.replaceChildren(el('p', 'error', e.message + (e.code ? ' (' + e.code + ')' : '')));
    }
  }
}
