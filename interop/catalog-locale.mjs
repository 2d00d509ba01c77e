// The web catalog in the visitor's language, in a real headless Chromium (the system's, through the DevTools protocol
// with puppeteer-core): for each language asked, a tab whose requests carry that Accept-Language
// (Network.setExtraHTTPHeaders) loads the page, lists the prompts, opens one, and reports what the DOM then says —
// the page's own words as a person reads them — and which fonts drew the heading (CSS.getPlatformFontsForNode), with
// a screenshot per language. Prints one JSON report line; exits 0 when every check passed, 1 otherwise.
//
//   node catalog-locale.mjs --url http://127.0.0.1:PORT/ --out DIR --languages ja,zh-CN [--prompt NAME] [--chromium PATH]
import fs from 'node:fs';
import path from 'node:path';
import { createReport, parseArgs, runInChromium } from './catalog-driver.mjs';

const args = parseArgs(process.argv.slice(2));
const base = new URL(args.url);
const out = args.out;
const languages = (args.languages || 'ja,zh-CN').split(',');
const target = args.prompt || 'write-tests';
const WAIT = 15000;
const { report, check } = createReport();
report.pages = {};

await runInChromium(args.chromium, report, scenario);

async function scenario(browser) {
  for (const language of languages) {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT);
    const problems = [];
    page.on('pageerror', (e) => problems.push('page error: ' + e.message));
    await page.setExtraHTTPHeaders({ 'Accept-Language': language });
    await page.setViewport({ width: 1440, height: 900 });
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'light' }]);
    const response = await page.goto(base.href, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => document.querySelectorAll('.prompt-item').length > 0
      && document.getElementById('live').dataset.mode === 'on');
    // Clicked in the page in one step: a live update may redraw the list between a lookup and a click from outside.
    await page.evaluate((name) => document.querySelector('.prompt-item[data-name="' + name + '"]').click(), target);
    await page.waitForSelector('#prompt:not([hidden]) #fields .rules');
    const said = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      title: document.title,
      heading: document.querySelector('h1').textContent,
      live: document.getElementById('live').textContent,
      count: document.getElementById('count').textContent,
      filterLabel: document.querySelector('label[for="filter"]').textContent,
      filterPlaceholder: document.getElementById('filter').placeholder,
      arguments: document.querySelector('#args h3').textContent,
      render: document.getElementById('render').textContent,
      rules: [...document.querySelectorAll('#fields .rules')].map((r) => r.textContent),
      install: (document.querySelector('#install summary') || { textContent: '' }).textContent,
      promptName: document.getElementById('prompt-name').textContent,
    }));
    said.contentLanguage = response.headers()['content-language'];
    said.vary = response.headers().vary;
    // Which fonts drew the heading's glyphs: a CJK face, not boxes.
    const cdp = await page.createCDPSession();
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'h1' });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    said.headingFonts = fonts.map((f) => f.familyName + ':' + f.glyphCount);
    check(language + ' no page errors', problems.length === 0, problems.join('; '));
    check(language + ' heading drawn with a CJK font', fonts.some((f) => /CJK/.test(f.familyName) && f.glyphCount > 0),
      said.headingFonts.join(', '));
    if (out) {
      fs.mkdirSync(out, { recursive: true });
      const file = path.join(out, 'catalog-1440-' + language + '.png');
      await page.screenshot({ path: file });
      report.screenshots.push(file);
    }
    report.pages[language] = said;
    await page.close();
  }
}
