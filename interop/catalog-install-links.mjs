// The web catalog's "Add to a client" section in a real headless Chromium (the system's, through the DevTools protocol
// with puppeteer-core): folded under one line at first, it opens to two buttons (VS Code, Cursor) and Claude Code's
// command; the page nowhere holds the token; it fits 375 px open; axe-core finds nothing, light and dark. Reports the
// buttons' hrefs and the command as the browser reads them, for the test to decode.
// Prints one JSON report line; exits 0 when every check passed, 1 otherwise.
//
//   node catalog-install-links.mjs --url http://127.0.0.1:PORT/ --out DIR [--token T] [--chromium PATH]
import fs from 'node:fs';
import path from 'node:path';
import { axeAudit, createReport, parseArgs, runInChromium } from './catalog-driver.mjs';

const args = parseArgs(process.argv.slice(2));
const base = new URL(args.url);
const token = args.token || null;
const WAIT = 15000;
const { report, check } = createReport();

await runInChromium(args.chromium, report, scenario);

async function scenario(browser) {
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT);
  const problems = [];
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  await page.setViewport({ width: 1440, height: 900 });
  await page.goto(base.href, { waitUntil: 'domcontentloaded' });

  // 1. Folded at first: one line, the buttons not shown.
  await page.waitForSelector('#install');
  check('folded at first', await page.$eval('#install', (d) => !d.open
    && !d.querySelector('#install-vscode').checkVisibility()));

  // 2. Opened, by keyboard as well as a click would: the two buttons and the command are shown.
  await page.focus('#install summary');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.getElementById('install').open);
  const shown = await page.evaluate(() => ['install-vscode', 'install-cursor', 'install-claude'].map((id) => {
    const e = document.getElementById(id);
    const r = e.getBoundingClientRect();
    return { id, text: e.textContent, visible: e.checkVisibility() && r.width > 0 && r.height > 0 };
  }));
  check('buttons and command shown', shown.every((s) => s.visible), JSON.stringify(shown));
  check('button names', shown[0].text === 'Add to VS Code' && shown[1].text === 'Add to Cursor',
    JSON.stringify(shown));

  // 3. What the buttons point at, as the browser reads the attributes, and the command's text.
  report.links = await page.evaluate(() => ({
    vscode: document.getElementById('install-vscode').getAttribute('href'),
    cursor: document.getElementById('install-cursor').getAttribute('href'),
    claude: document.getElementById('install-claude').textContent,
    url: document.getElementById('install-url').textContent,
  }));
  if (token) {
    const html = await page.evaluate(() => document.documentElement.outerHTML);
    check('no token in the page', !html.includes(token) && !JSON.stringify(report.links).includes(token));
  }

  // 4. Open on a phone: nothing overflows.
  await page.setViewport({ width: 375, height: 812, isMobile: true, hasTouch: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check('fits 375 px open', overflow <= 0, 'overflows by ' + overflow + ' px');
  await screenshot(page, 'catalog-install-375.png');

  // 5. Accessibility of the open section, light and dark (axe's script in a tab whose page policy is bypassed).
  const audit = await browser.newPage();
  audit.setDefaultTimeout(WAIT);
  await audit.setBypassCSP(true);
  for (const scheme of ['light', 'dark']) {
    await audit.setViewport({ width: 1440, height: 900 });
    await audit.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    await audit.goto(base.href, { waitUntil: 'domcontentloaded' });
    await audit.click('#install summary');
    await audit.waitForFunction(() => document.getElementById('install').open);
    const found = await axeAudit(audit);
    check('accessibility open ' + scheme, found.violations.length === 0 && found.passes > 10,
      found.violations.join('; ') || found.passes);
    if (scheme === 'dark') await screenshot(audit, 'catalog-install-1440-dark.png');
  }
  await audit.close();
  check('no page errors', problems.length === 0, problems.join('; '));
}

async function screenshot(page, name) {
  if (!args.out) return;
  fs.mkdirSync(args.out, { recursive: true });
  const file = path.join(args.out, name);
  await page.screenshot({ path: file });
  report.screenshots.push(file);
}
