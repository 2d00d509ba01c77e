// Drives the web catalog's lifecycle section of a running `promptd serve --store URL --label A --label B --http
// --catalog --manage` (OAuth) in a real headless Chromium and checks it against the management API's own answers:
// a prompt's versions, a diff between two, "promote to…" refused for a token without the protected label's scope (the
// API's message shown, nothing moved) and done with it, its usage, the recorded promotions (promotion 1, made before
// the page opened, reverted with its button; reverting it again refused with the API's message), and the catalog page
// of the further label.
// Prints one JSON report line; exits 0 when every check passed, 1 otherwise.
//
//   node catalog-lifecycle.mjs --url http://127.0.0.1:PORT/ --name NAME --protected LABEL --further LABEL
//       --token T --promoter T2 --uses N --out DIR [--chromium PATH]
// --token may not move LABEL, --promoter may. Before the browser opens, N prompts/get of NAME are made on /mcp, and
// the usage the page shows must count them.
import fs from 'node:fs';
import path from 'node:path';
import { axeAudit, createReport, mcpClient, parseArgs, runInChromium } from './catalog-driver.mjs';

const args = parseArgs(process.argv.slice(2));
const base = new URL(args.url);
const name = args.name;
const guarded = args.protected;
const further = args.further;
const uses = Number(args.uses);
const { report, check } = createReport();
const WAIT = 15000;

/** The management API's answer, asked outside the browser with {@code token}. */
async function api(path, token = args.token) {
  const response = await fetch(new URL('/manage/v1' + path, base), { headers: { Authorization: 'Bearer ' + token } });
  if (!response.ok) throw new Error(path + ': HTTP ' + response.status + ' ' + await response.text());
  return response.json();
}
const servedText = (result) => [result.messages[0].content].flat()[0].text;
const labelVersion = async (label) => ((await api('/labels')).labels.find((l) => l.label === label) || {}).version;
const poll = async (what, condition) => {
  for (const end = Date.now() + 30000; Date.now() < end;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('not within 30 s: ' + what);
};

await runInChromium(args.chromium, report, async (browser) => {
  // Uses to count: N prompts/get on /mcp, written by the server within seconds.
  const mcp = mcpClient(base, '/mcp', args.token);
  for (let i = 0; i < uses; i++) {
    await mcp('prompts/get', { name, arguments: {} });
  }
  const usageTotal = async () => (await api('/usage?name=' + encodeURIComponent(name))).rows
    .reduce((sum, r) => sum + r.uses, 0);
  await poll(uses + ' uses written', async () => await usageTotal() === uses);

  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT);
  const requests = [];
  const problems = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('dialog', async (d) => {
    problems.push('dialog opened: ' + d.message());
    await d.dismiss();
  });
  await page.setViewport({ width: 1440, height: 1000 });
  const useToken = async (token) => {
    await page.waitForSelector('#token-panel:not([hidden])');
    await page.type('#token', token);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.prompt-item');
  };
  const open = async () => {
    await page.$$eval('.prompt-item', (items, n) => items.find((i) => i.dataset.name === n).click(), name);
    await page.waitForSelector('#lifecycle:not([hidden])');
    await page.waitForFunction(() => document.querySelectorAll('#versions-body tr').length > 0
      && document.querySelectorAll('#usage-body tr').length > 0);
  };
  const shownVersions = () => page.$$eval('#versions-body tr', (rows) => rows.map((r) => ({
    version: Number(r.dataset.version),
    labels: [...r.querySelectorAll('.tag')].map((t) => t.firstChild.textContent) })));
  const wantedVersions = async () => (await api('/versions?name=' + encodeURIComponent(name))).files
    .flatMap((f) => f.versions).sort((a, b) => b.version - a.version)
    .map((v) => ({ version: v.version, labels: v.labels.concat(v.deleted ? ['deleted'] : []) }));

  // 1. The page at / (the first label), with a token that may not move the protected label.
  await page.goto(base.href, { waitUntil: 'domcontentloaded' });
  await useToken(args.token);
  await open();
  let want = JSON.stringify(await wantedVersions());
  check('versions shown', JSON.stringify(await shownVersions()) === want, JSON.stringify(await shownVersions()));

  // 2. A diff between the oldest and the newest version, as /manage/v1/diff answers it.
  const numbers = (await wantedVersions()).map((v) => v.version);
  const [newest, oldest] = [numbers[0], numbers[numbers.length - 1]];
  await page.select('#diff-from', String(oldest));
  await page.select('#diff-to', String(newest));
  await page.click('#diff-show');
  await page.waitForSelector('#diff:not([hidden])');
  const diff = (await api('/diff?name=' + encodeURIComponent(name) + '&from=' + oldest + '&to=' + newest)).diff;
  const shownDiff = await page.$eval('#diff', (d) => d.textContent);
  check('diff shown', diff.length > 0 && shownDiff === diff, shownDiff);
  check('diff lines marked', await page.$$eval('#diff .added', (a) => a.length) > 0
    && await page.$$eval('#diff .removed', (r) => r.length) > 0);

  // 3. Usage: what /manage/v1/usage answers, with the uses made above.
  const usage = (await api('/usage?name=' + encodeURIComponent(name) + '&since=7d')).rows;
  const shownUsage = await page.$$eval('#usage-body tr', (rows) => rows.map((r) => [...r.cells]
    .map((c) => c.textContent)));
  const wantedUsage = usage.map((r) => [r.version, r.storeVersions.length ? r.storeVersions.join(', ') : '-', r.label,
    r.client || '(none)', r.outcome, r.uses.toLocaleString('en'), (r.totalMicros / r.uses / 1000).toFixed(1)]);
  check('usage shown', JSON.stringify(shownUsage) === JSON.stringify(wantedUsage)
    && await page.$eval('#usage-status', (s) => s.textContent) === uses + ' uses in the last 7 days.',
  JSON.stringify(shownUsage));
  await screenshot(page, 'lifecycle-1440-light.png', '#lifecycle');

  // 4. Promote without the scope: the API's 403 message shown, nothing moved, the page still working.
  const before = await labelVersion(guarded);
  await page.select('#promote-version', String(newest));
  await page.type('#promote-label', guarded);
  await page.click('#promote');
  await page.waitForSelector('#promote-error:not([hidden])');
  const refusal = await page.$eval('#promote-error', (e) => e.textContent);
  check('promote without the scope refused', refusal.startsWith('Not promoted: the label \'' + guarded
    + '\' is protected: moving it needs the scope'), refusal);
  check('nothing moved', await labelVersion(guarded) === before, String(await labelVersion(guarded)));
  check('the page still works', await page.$eval('#main', (m) => !m.hidden)
    && await page.$eval('#token-panel', (t) => t.hidden));

  // 5. With a token holding the scope: moved, as /manage/v1/labels says; the page at / follows (it serves that label).
  const servedBefore = servedText(await mcp('prompts/get', { name, arguments: {} }));
  await page.click('#forget');
  await useToken(args.promoter);
  await open();
  await page.select('#promote-version', String(newest));
  await page.$eval('#promote-label', (i) => { i.value = ''; });
  await page.type('#promote-label', guarded);
  await page.click('#promote');
  await page.waitForFunction(() => document.getElementById('promote-done').textContent !== '');
  const done = await page.$eval('#promote-done', (d) => d.textContent);
  check('promote with the scope moves the label', await labelVersion(guarded) === newest
    && done.includes(guarded) && done.includes('to version ' + newest), done);
  await page.waitForFunction((v, l) => [...document.querySelectorAll('#versions-body tr')]
    .some((r) => r.dataset.version === String(v) && r.textContent.includes(l)), {}, newest, guarded);
  check('versions show the move', JSON.stringify(await shownVersions()) === JSON.stringify(await wantedVersions()));
  await poll('the served prompt follows the move', async () =>
    servedText(await mcp('prompts/get', { name, arguments: {} })) !== servedBefore);

  // 5b. The recorded promotions: promotion 1 (staging → beta) reverted with its button, the revert listed above it;
  // reverting 1 again is refused (beta moved since), the API's message shown, nothing moved.
  await page.waitForSelector('#promotions-list [data-revert="1"]');
  const betaBefore = await labelVersion('beta');
  await page.click('#promotions-list [data-revert="1"]');
  await page.waitForFunction(() => document.getElementById('promotions-done').textContent !== '');
  const reverted = await page.$eval('#promotions-done', (d) => d.textContent);
  check('revert a promotion', betaBefore === newest && await labelVersion('beta') === undefined
    && reverted === 'Reverted promotion 1: 1 file moved back, recorded as promotion 2.', reverted);
  await page.waitForFunction(() => document.querySelectorAll('#promotions-list li').length === 2);
  const recorded = await page.$$eval('#promotions-list li', (items) => items.map((i) => i.dataset.promotion + ' '
    + i.querySelector('.promotion-what').textContent + ' / ' + i.querySelector('button').textContent));
  check('the revert is listed', JSON.stringify(recorded) === JSON.stringify([
    '2 Promotion 2: reverts promotion 1 of beta / Revert promotion 2',
    '1 Promotion 1: staging → beta / Revert promotion 1']), JSON.stringify(recorded));
  await screenshot(page, 'promotions-1440-light.png', '#promotions');
  await page.click('#promotions-list [data-revert="1"]');
  await page.waitForSelector('#promotions-error:not([hidden])');
  const again = await page.$eval('#promotions-error', (e) => e.textContent);
  check('a refused revert says why', again === 'Promotion 1 not reverted: cannot revert promotion #1: \'beta\' moved'
    + ' since on hello.prompt.md (see promptd history --store); no label was moved', again);
  check('nothing moved by the refused revert', await labelVersion('beta') === undefined
    && await page.$$eval('#promotions-list li', (items) => items.length) === 2);

  // 6. The further label's catalog at /labels/NAME/: its endpoint's prompts, the label named, its version marked.
  const label = await browser.newPage();
  label.setDefaultTimeout(WAIT);
  label.on('pageerror', (e) => problems.push('label page error: ' + e.message));
  label.on('request', (r) => requests.push(r.url()));
  await label.evaluateOnNewDocument((t) => sessionStorage.setItem('promptd.catalog.token', t), args.token);
  await label.goto(new URL('/labels/' + further + '/', base).href, { waitUntil: 'domcontentloaded' });
  const endpoint = mcpClient(base, '/labels/' + further + '/mcp', args.token);
  const listed = (await endpoint('prompts/list', {})).prompts;
  await label.waitForFunction((n) => document.querySelectorAll('.prompt-item').length === n, {}, listed.length);
  const shownList = await label.$$eval('.prompt-item', (items) => items.map((i) => ({
    name: i.dataset.name, description: (i.querySelector('.prompt-description') || { textContent: '' }).textContent })));
  check('label page lists its endpoint', JSON.stringify(shownList)
    === JSON.stringify(listed.map((p) => ({ name: p.name, description: p.description || '' }))), JSON.stringify(shownList));
  const named = await label.$eval('#served-label', (s) => (s.hidden ? '' : s.textContent));
  check('label page names its label', named === 'label ' + further, named);
  await label.$$eval('.prompt-item', (items, n) => items.find((i) => i.dataset.name === n).click(), name);
  await label.waitForFunction(() => document.querySelector('#versions-body .tag.served'));
  const servedVersion = await label.$eval('#versions-body .tag.served', (t) => t.closest('tr').dataset.version);
  const pointed = await labelVersion(further);
  check('label page marks its version', Number(servedVersion) === pointed, servedVersion + ' / ' + pointed);
  report.labelPage = { label: further, version: pointed, prompts: shownList };
  await screenshot(label, 'lifecycle-label-1440-light.png');

  // 7. Accessibility of the lifecycle section, light and dark (a tab whose page policy the test bypasses for axe).
  const audit = await browser.newPage();
  audit.setDefaultTimeout(WAIT);
  await audit.setBypassCSP(true);
  await audit.evaluateOnNewDocument((t) => sessionStorage.setItem('promptd.catalog.token', t), args.token);
  for (const scheme of ['light', 'dark']) {
    await audit.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    await audit.goto('about:blank');
    await audit.goto(new URL('#' + name, base).href, { waitUntil: 'domcontentloaded' });
    await audit.waitForFunction(() => document.querySelectorAll('#usage-body tr').length > 0);
    const found = await axeAudit(audit);
    check('accessibility of the lifecycle section ' + scheme, found.violations.length === 0 && found.passes > 10,
      found.violations.join('; ') || String(found.passes));
  }

  const foreign = requests.filter((u) => !u.startsWith(base.origin) && !u.startsWith('data:'));
  check('same origin only', foreign.length === 0, foreign.join(' '));
  check('no page errors or dialogs', problems.length === 0, problems.join('; '));
});

/** A screenshot of the page, or of its element {@code selector}. */
async function screenshot(page, file, selector) {
  if (!args.out) return;
  fs.mkdirSync(args.out, { recursive: true });
  const target = selector ? await page.$(selector) : page;
  await target.screenshot({ path: path.join(args.out, file), ...(selector ? {} : { fullPage: true }) });
  report.screenshots.push(file);
}
