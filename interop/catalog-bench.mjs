// Times the web catalog in the system's headless Chromium against a running `promptd serve --http --catalog`:
//   load:   navigation start -> every prompt listed (all prompts/list pages fetched, the first 300 drawn)
//   filter: one keystroke in the filter -> the list redrawn and painted (median and p95 of ROUNDS keystrokes)
//   render: Render pressed -> the prompts/get result shown (median and p95)
// Prints one JSON line.   node catalog-bench.mjs --url http://127.0.0.1:PORT/ --count N --prompt NAME [--rounds R]
import puppeteer from 'puppeteer-core';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, a, i, all) => {
  if (a.startsWith('--')) pairs.push([a.slice(2), all[i + 1]]);
  return pairs;
}, []));
const count = Number(args.count);
const rounds = Number(args.rounds || 30);
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const browser = await puppeteer.launch({ executablePath: args.chromium || '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], protocolTimeout: 120000 });
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(120000);
  await page.setViewport({ width: 1440, height: 900 });
  const loads = [];
  for (let i = 0; i < 3; i++) {
    await page.goto('about:blank');
    const started = Date.now();
    await page.goto(args.url, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction((n) => document.getElementById('count').textContent.startsWith(n.toLocaleString()
      + ' prompt') || document.getElementById('count').textContent === n + ' prompts', { polling: 'raf' }, count);
    loads.push(Date.now() - started);
  }
  // One keystroke at a time, alternating between narrowing and widening, timed inside the page up to the next frame.
  const filters = await page.evaluate(async (n) => {
    const input = document.getElementById('filter');
    const times = [];
    const words = ['p0', 'p00', 'p000', 'p00', 'p0', ''];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      input.value = words[i % words.length];
      input.dispatchEvent(new Event('input'));
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      times.push(performance.now() - t0);
    }
    return times;
  }, rounds);
  await page.evaluate(() => { location.hash = ''; });
  await page.evaluate((name) => { location.hash = name; }, args.prompt);
  await page.waitForSelector('#prompt:not([hidden])');
  for (const field of await page.$$('[data-argument]')) await field.type('x');
  const renders = [];
  for (let i = 0; i < rounds; i++) {
    await page.evaluate(() => { document.getElementById('messages').replaceChildren(); });
    const t0 = Date.now();
    await page.click('#render');
    await page.waitForFunction(() => document.querySelector('#messages .message') !== null, { polling: 'raf' });
    renders.push(Date.now() - t0);
  }
  console.log(JSON.stringify({ prompts: count, loadMs: loads, filterMedianMs: +quantile(filters, 0.5).toFixed(1),
    filterP95Ms: +quantile(filters, 0.95).toFixed(1), renderMedianMs: quantile(renders, 0.5),
    renderP95Ms: quantile(renders, 0.95) }));
} finally {
  await browser.close();
}
